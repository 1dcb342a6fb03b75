-- id: TIDB-21618
-- title: pessimistic lock doesn't work on the partition for subquery/joins
-- link: https://github.com/pingcap/tidb/issues/21618
-- dbms: TiDB v6.4.0
-- isolation: read-committed, repeatable-read
-- mode: pessimistic
-- source: ReplBug thesis (paper 003), replbug/TIDB-21618.txt scenario_0
-- description: pessimistic lock doesn't work on the partition for subquery/joins
-- bug-type: Missing blocking; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- buggy: The SELECT ... FOR UPDATE with a subquery on the partitioned table did not lock the row, so the second SELECT ... FOR UPDATE did not wait.
/* init */ create table t (c_int int, d_int int, primary key (c_int), key(d_int)) partition by hash (c_int) partitions 4;
/* init */ insert into t values (1, 2);
/* t1 */ begin pessimistic;
/* t1 */ select * from t where d_int in (select d_int from t where c_int = 1) for update;
/* t2 */ begin pessimistic;
/* t2 */ select * from t where d_int = 2 for update;  -- expect: blocked then rows [(1, 2)]
/* t1 */ COMMIT;
/* t2 */ COMMIT;
