-- id: TIDB-20881
-- title: The insert should block until the other transaction is committed, but it doesn't.
-- link: https://github.com/pingcap/tidb/issues/20881
-- dbms: TiDB v4.0.4
-- source: ReplBug thesis (paper 003), replbug/TIDB-20881.txt scenario_0
-- description: The insert should block until the other transaction is committed, but it doesn't.
-- buggy: With the new collation framework the row inserted in the transaction was not returned correctly.
/* init */ create table t (a char(10) collate utf8mb4_unicode_ci, b char(20) collate utf8mb4_general_ci, c int, primary key (a, b, c));
/* t1 */ begin;
/* t1 */ insert into t values ("$", "c", 20);
/* t1 */ select * from t;  -- expect: rows [('$', 'c', 20)]
