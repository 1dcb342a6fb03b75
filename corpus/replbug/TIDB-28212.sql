-- id: TIDB-28212
-- title: Incorrect SELECT value when row is updated by 2 transactions.
-- link: https://github.com/pingcap/tidb/issues/28212
-- dbms: TiDB v6.4.0
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-28212.txt scenario_0
-- description: Incorrect SELECT value when row is updated by 2 transactions.
-- bug-type: Incorrect query result; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- buggy: The final SELECT of t1 did not show a = 10 in every row.
/* init */ create table t(a int, b int);
/* init */ insert into t values (0, 0), (1, 1), (2, 2);
/* t1 */ begin;
/* t1 */ select * from t;
/* t2 */ begin;
/* t2 */ update t set a = 10 where b = 1;  -- expect: affected 1
/* t2 */ commit;
/* t1 */ select * from t;
/* t1 */ update t set a = 10 where true;
/* t1 */ select * from t;  -- expect: rows [(10, 0), (10, 1), (10, 2)]
/* t1 */ commit;
-- expect final: t = [(10, 0), (10, 1), (10, 2)]
