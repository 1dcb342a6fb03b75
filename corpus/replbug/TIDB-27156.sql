-- id: TIDB-27156
-- title: Playing with lock_wait_timeout and txn_mode makes the same commit succeed / fail
-- link: https://github.com/pingcap/tidb/issues/27156
-- dbms: TiDB v5.2.0-alpha-26237b35
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-27156.txt scenario_0
-- description: Playing with lock_wait_timeout and txn_mode makes the same commit succeed / fail.
-- bug-type: Missing error; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- TiDB-specific (tidb_txn_mode, lock_wait_timeout 0, NOWAIT); no expectation.
/* init */ create table t2(c1 int primary key, c2 int, c3 int, c4 int, key k2(c2), key k3(c3)) partition by hash(c1) partitions 10;
/* init */ insert into t2 values (1,1,1,1),(2,2,2,2),(3,3,3,3),(4,4,4,4);
/* t1 */ set autocommit = 0;
/* t1 */ set innodb_lock_wait_timeout = 0;
/* t1 */ set tidb_txn_mode = pessimistic;
/* t2 */ set autocommit = 0;
/* t2 */ set innodb_lock_wait_timeout = 0;
/* t2 */ set tidb_txn_mode = pessimistic;
/* t3 */ set autocommit = 0;
/* t3 */ set tidb_txn_mode = optimistic;
/* t1 */ select * from t2 where c4 > 2 for update;
/* t2 */ insert into t2 values(5,5,5,5);
/* t2 */ update t2 set c4 = c4 + 1 where c3 = 3;
/* t2 */ select c1, c3 from t2 where c3 = 4 for update nowait;
/* t3 */ update t2 set c4 = c4 * 10 where c4 = 4;
/* t1 */ commit;
/* t3 */ commit;
