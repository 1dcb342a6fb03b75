-- id: TIDB-23179
-- title: bug in point-get + pessimistic txn + overflow
-- link: https://github.com/pingcap/tidb/issues/23179
-- dbms: TiDB v4.0.11
-- isolation: read-committed, repeatable-read
-- mode: pessimistic
-- source: ReplBug thesis (paper 003), replbug/TIDB-23179.txt scenario_0
-- description: point-get + pessimistic txn + overflow in secondary index may panic
-- bug-type: Unexpected error; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- buggy: The point-get UPDATE with an out-of-range tinyint key panicked in a pessimistic transaction.
/* init */ create table t(k tinyint, v int, unique key(k));
/* t1 */ begin pessimistic;
/* t1 */ update t set v = 100 where k = -200;  -- expect: affected 0
