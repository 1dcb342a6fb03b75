-- id: TIDB-37653
-- title: Select locks rows even when they don't match their predicate.
-- link: https://github.com/pingcap/tidb/issues/37653
-- dbms: TiDB v6.2.0
-- isolation: read-committed, repeatable-read
-- mode: pessimistic
-- source: ReplBug thesis (paper 003), replbug/TIDB-37653.txt scenario_0
-- description: TiDB locks the record which is filtered by the non-index condition
-- bug-type: Unnecessary locking; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- Whether the row filtered by the non-index condition is locked depends on the plan; no expectation.
/* init */ create table t1(id1 int, id2 int, id3 int, PRIMARY KEY(id1), UNIQUE KEY udx_id2 (id2));
/* init */ INSERT INTO t1 VALUES(1,1,1);
/* t1 */ begin pessimistic;
/* t1 */ select * from t1 where id1 = 1 and id2 = 2 for update;
/* t2 */ begin pessimistic;
/* t2 */ select * from t1 where id1 = 1 for update;
/* t2 */ commit;
/* t1 */ commit;
