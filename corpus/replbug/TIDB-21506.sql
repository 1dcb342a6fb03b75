-- id: TIDB-21506
-- title: Inserting data updated by another tranzaction does not fail when it should.
-- link: https://github.com/pingcap/tidb/issues/21506
-- dbms: TiDB v4.0.7
-- isolation: repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-21506.txt scenario_0
-- description: Inserting data twice when another transaction is updating the data does not fail.
-- bug-type: Missing error; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- buggy: The second INSERT ... SELECT read the latest committed rows of t1 instead of the snapshot and succeeded.
-- levels-note: At read-committed the second INSERT ... SELECT legitimately reads the new ids (3, 4) and succeeds, so only repeatable-read is run.
/* init */ create table t1 (id int primary key, v int);
/* init */ create table t2 (id int primary key, v int);
/* init */ insert into t1 values (1, 10), (2, 20);
/* t1 */ begin;
/* t1 */ insert into t2 select * from t1;
/* t2 */ update t1 set id = id + 2;
-- Comment from the source PoC on the next statement: succeed
/* t1 */ insert into t2 select * from t1;  -- expect: error constraint
-- Comment from the source PoC on the next statement: (1, 10), (2, 20), (3, 10), (4, 20)
/* t1 */ select * from t2;
/* t1 */ commit;
/* t3 */ select * from t1;
/* t3 */ select * from t2;
-- expect final: t1 = [(3, 10), (4, 20)]
-- expect final: t2 = [(1, 10), (2, 20)]
