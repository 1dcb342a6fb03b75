-- id: TIDB-35682
-- title: Instruction that failed due to timeout still holds locks.
-- link: https://github.com/pingcap/tidb/issues/35682
-- dbms: TiDB v6.4.0
-- isolation: read-committed, repeatable-read
-- mode: pessimistic
-- source: ReplBug thesis (paper 003), replbug/TIDB-35682.txt scenario_0
-- description: Instruction that failed due to timeout still holds locks.
-- bug-type: Unnecessary locking; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- buggy: The statement that failed with a lock-wait timeout kept its lock, so conn 2 waited for conn 0.
-- No expectation: txhunt keeps submitting conn 1 statements while conn 0 waits, so conn 1 commits before the 1 s lock-wait timeout fires;
-- and the decisive symptom (conn 2 waits although it should not) cannot be stated: the scenario language has no "not blocked".
/* init */ create table t (id int primary key, v int, idx int unique);
/* init */ insert into t values (1, 10, 1), (2, 20, 2);
/* t1 */ begin;
/* t1 */ select @@tidb_current_ts;
/* t2 */ begin;
/* t2 */ update t set v = v + 1 where id = 1;
/* t1 */ set @@innodb_lock_wait_timeout = 1;
/* t1 */ select * from t where idx = 1 for update;
/* t1 */ select @@tidb_current_ts;
/* t1 */ select @@tidb_current_ts;
/* t1 */ select @@tidb_current_ts;
/* t1 */ select * from t where idx = 2 for update;
/* t2 */ commit;
/* t3 */ begin;
/* t3 */ select * from t where idx = 1 for update;
/* t3 */ rollback;
/* t1 */ rollback;
