-- id: MDEV-28944
-- title: The DB server crashes during an XA rollback.
-- link: https://jira.mariadb.org/browse/MDEV-28944
-- dbms: MariaDB cb1f08bd-debug
-- isolation: read-uncommitted, read-committed, repeatable-read, serializable
-- source: ReplBug thesis (paper 003), replbug/MDEV-28944.txt scenario_0
-- description: The server crashes during an XA transaction rollback after a table is altered.
-- bug-type: Crash; levels where it manifested (correlation sheet): read-uncommitted, read-committed, repeatable-read, serializable
-- Crash bug: the only expectation is the liveness probe at the end.
/* t1 */ CREATE TABLE t (a INT) ENGINE=MyISAM;
/* t1 */ INSERT INTO t VALUES (1);
/* t2 */ XA START 'xid';
/* t2 */ SELECT * FROM t;
/* t1 */ ALTER TABLE t NOWAIT ADD KEY (a);
/* t2 */ UPDATE t SET a = 2;
/* t2 */ XA END 'xid';
/* t2 */ XA ROLLBACK 'xid';
/* t1 */ DROP TABLE t;
-- Liveness probe added by the corpus (not part of the PoC): after a crash this fails.
/* t3 */ SELECT 1;  -- expect: rows [1]
