-- id: mariadb-si-lost-update
-- title: With innodb_snapshot_isolation=ON a REPEATABLE READ update of a row changed since the read view is refused (error 1020)
-- dbms: MariaDB 10.11
-- isolation: repeatable-read
-- targets: mariadb?innodb_snapshot_isolation=ON
-- Plain MariaDB lets t1 overwrite t2's committed update from the newest version (a lost
-- update that its REPEATABLE READ documents); with the variable ON the level is snapshot
-- isolation, and t1's write fails and rolls t1 back.
/* init */ CREATE TABLE t (k INT PRIMARY KEY, v INT);
/* init */ INSERT INTO t VALUES (1, 10);
/* t1 */ BEGIN;
/* t1 */ SELECT v FROM t WHERE k = 1;          -- expect: rows [10]
/* t2 */ UPDATE t SET v = v + 1 WHERE k = 1;   -- expect: affected 1
/* t1 */ UPDATE t SET v = v + 1 WHERE k = 1;   -- expect: error serialization
/* t1 */ COMMIT;
-- expect final: t = [(1, 11)]
