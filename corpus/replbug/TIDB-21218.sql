-- id: TIDB-21218
-- title: The second select should output the same table as the first one, but it doesn't.
-- link: https://github.com/pingcap/tidb/issues/21218
-- dbms: TiDB v4.0.0-beta.2
-- mode: pessimistic
-- source: ReplBug thesis (paper 003), replbug/TIDB-21218.txt scenario_0
-- description: The second select should output the same table as the first one, but it doesn't.
-- buggy: The final table was inconsistent (the insert of the key freed by the concurrent UPDATE was lost or duplicated).
/* init */ create table t(id int, v int, val int, primary key(id, v));
/* init */ insert into t values(1, 1, 1);
/* t1 */ begin pessimistic;
/* t2 */ begin pessimistic;
/* t1 */ select * from t where id = 1 and v = 1 for update;
/* t2 */ insert into t values(1, 1, 2);
/* t1 */ update t set v = 2 where id = 1 and v = 1;
/* t1 */ commit;
/* t2 */ commit;
/* t3 */ SELECT * FROM t;
-- expect final: t = [(1, 2, 1), (1, 1, 2)]
