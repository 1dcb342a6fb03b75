-- id: TIDB-20692
-- title: Under concurent operations, an update on a locked table does not wait for the lock to be commited.
-- link: https://github.com/pingcap/tidb/issues/20692
-- dbms: TiDB v4.0.0-beta.2
-- isolation: read-committed, repeatable-read
-- mode: pessimistic
-- source: ReplBug thesis (paper 003), replbug/TIDB-20692.txt scenario_0
-- description: The update should block, but it doesn't.
-- bug-type: Missing blocking; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- buggy: The UPDATE of the row locked by the other transactions did not wait (reported as a bug for TiDB).
-- No expectation: on MariaDB the UPDATE legitimately finds no row (1, 2, 3) because the INSERT is still waiting, so whether it must block is DBMS-specific.
/* init */ create table t (id int primary key, v int, vv int, vvv int, unique key u0(id, v, vv));
/* init */ insert into t values(1, 1, 1, 1);
/* t1 */ begin;
/* t2 */ begin;
/* t3 */ begin;
/* t1 */ delete from t where id = 1 and v = 1 and vv = 1;
/* t2 */ insert into t values(1, 2, 3, 4);
/* t3 */ update t set id = 10, v = 20, vv = 30, vvv = 40 where id = 1 and v = 2 and vv = 3;
/* t1 */ commit;
/* t3 */ commit;
/* t2 */ commit;
