-- id: MDEV-14868
-- title: Rollbacks make the server crash.
-- link: https://jira.mariadb.org/browse/MDEV-14868
-- dbms: MariaDB 10.2.12-encrypted-logs
-- isolation: read-uncommitted, read-committed, repeatable-read, serializable
-- source: ReplBug thesis (paper 003), replbug/MDEV-14868.txt scenario_0
-- description: Rollbacks make the server crash.
-- bug-type: Crash; levels where it manifested (correlation sheet): read-uncommitted, read-committed, repeatable-read, serializable
-- buggy: The server crashed on ROLLBACK TO SAVEPOINT (only with encrypt_tmp_files=ON, a server start option txhunt does not set).
-- Reproduces only on a server started with encrypt_tmp_files=ON.
/* init */ CREATE TABLE t (a TEXT) ENGINE = InnoDB;
/* t1 */ BEGIN;
/* t1 */ INSERT INTO t VALUES (REPEAT('a', 20000));
/* t1 */ SAVEPOINT sp;
/* t1 */ INSERT INTO t VALUES (REPEAT('a', 20000));
/* t1 */ ROLLBACK TO sp;  -- expect: ok
/* t1 */ COMMIT;  -- expect: ok
-- Liveness probe added by the corpus (not part of the PoC): after a crash this fails.
/* t2 */ SELECT 1;  -- expect: rows [1]
