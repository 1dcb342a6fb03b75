-- id: TIDB-21151
-- title: NO_INDEX_MERGE and USE_INDEX_MERGE have different behaviours in transaction
-- link: https://github.com/pingcap/tidb/issues/21151
-- dbms: TiDB v4.0.8
-- isolation: read-committed
-- source: ReplBug thesis (paper 003), replbug/TIDB-21151.txt scenario_0
-- description: SELECT returns different values if using NO_INDEX_MERGE
-- bug-type: Incorrect query result; levels where it manifested (correlation sheet): read-committed
-- buggy: The index-merge plan returned a different value than the table scan for the same query in the same transaction.
-- levels-note: At read-committed the last two SELECTs see the committed value 11; at repeatable-read they would see 10, so only read-committed (where the bug manifested) is run.
/* init */ create table t (id int primary key, value int, a int not null, b int not null,
    index ia (a),  index ib (b));
/* init */ insert into t values (1, 10, 2, 0), (2, 10, 4, 4), (3, 10, 0, 2), (4, 10, 0, 0);
/* t1 */ BEGIN;
/* t1 */ select /*+ NO_INDEX_MERGE() */ * from t where a > 3 or b > 3;  -- expect: rows [(2, 10, 4, 4)]
/* t1 */ select /*+ USE_INDEX_MERGE(t, ia, ib) */ * from t where a > 3 or b > 3;  -- expect: rows [(2, 10, 4, 4)]
/* t2 */ BEGIN;
/* t2 */ update t set value = 11 where id = 2;
/* t2 */ COMMIT;
/* t1 */ select /*+ NO_INDEX_MERGE() */ * from t where a > 3 or b > 3;  -- expect: rows [(2, 11, 4, 4)]
/* t1 */ select /*+ USE_INDEX_MERGE(t, ia, ib) */ * from t where a > 3 or b > 3;  -- expect: rows [(2, 11, 4, 4)]
/* t1 */ COMMIT;
