-- id: MDEV-25457
-- title: Updates on a temporary table inside a read-only transaction make the server crash.
-- link: https://jira.mariadb.org/browse/MDEV-25457
-- dbms: MariaDB 10.2.37-debug
-- isolation: read-uncommitted, read-committed, repeatable-read, serializable
-- source: ReplBug thesis (paper 003), replbug/MDEV-25457.txt scenario_0
-- description: An update makes the DB server crash.
-- bug-type: Crash; levels where it manifested (correlation sheet): read-uncommitted, read-committed, repeatable-read, serializable
-- buggy: The server crashed in row_undo_mod_clust_low when the read-only transaction that updated a temporary table was rolled back.
/* t1 */ CREATE TEMPORARY TABLE t (a INT) ENGINE=InnoDB;
/* t1 */ INSERT INTO t VALUES (1);
/* t1 */ START TRANSACTION READ ONLY;
/* t1 */ UPDATE t SET a = NULL;  -- expect: affected 1
/* t1 */ ROLLBACK;  -- expect: ok
-- Liveness probe added by the corpus (not part of the PoC): after a crash this fails.
/* t2 */ SELECT 1;  -- expect: rows [1]
