-- id: MDEV-27992
-- title: One transaction deletes everything from a table, but following SELECT still sees data
-- link: https://jira.mariadb.org/browse/MDEV-27992
-- dbms: MariaDB 10.7.3
-- isolation: read-uncommitted, read-committed
-- source: ReplBug thesis (paper 003), replbug/MDEV-27992.txt scenario_0
-- description: The delete from conn_1 should block, wait for conn_0 to commit, and then delete everything. But it doesn't.
-- bug-type: Incorrect database state; levels where it manifested (correlation sheet): read-uncommitted, read-committed, repeatable-read, serializable
-- buggy: After the blocked DELETE resumed, SELECT ... FOR UPDATE in the same transaction still returned the row (3, 5).
-- levels-note: At repeatable-read and serializable MariaDB 10.11 may break the wait with a deadlock error for t2 (a legitimate outcome), after which the SELECT runs outside the transaction; so only the levels where the expectation is unconditional are run.
/* init */ CREATE TABLE t(c1 INT PRIMARY KEY, c2 INT);
/* init */ INSERT INTO t(c1) VALUES (8);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t1 */ UPDATE t SET c1 = 5, c2 = 5;
/* t2 */ DELETE FROM t;
/* t1 */ UPDATE t SET c1 = 3;
/* t1 */ COMMIT;
/* t2 */ SELECT * FROM t FOR UPDATE;  -- expect: rows []
/* t2 */ ROLLBACK;
-- expect final: t = [(3, 5)]
