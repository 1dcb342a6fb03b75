-- id: TIDB-20535
-- title: A transaction throws "duplicate error" instead of waiting for concurent transaction with lock on table.
-- link: https://github.com/pingcap/tidb/issues/20535
-- dbms: TiDB v4.0.4
-- isolation: read-committed, repeatable-read
-- mode: pessimistic
-- source: ReplBug thesis (paper 003), replbug/TIDB-20535.txt scenario_0
-- description: The insert should block until the other transaction is committed, but it doesn't.
-- bug-type: Unexpected error; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- buggy: The INSERT of the key being deleted by the open transaction did not wait (it reported an error at once).
/* init */ create table t2(k int, kk int, val int, primary key(k, kk));
/* init */ insert into t2 values(1, 1, 1);
/* t1 */ begin;
/* t2 */ begin;
/* t1 */ delete from t2 where k = 1;
/* t2 */ insert into t2 values(1, 1, 2);  -- expect: blocked
