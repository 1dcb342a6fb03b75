-- id: mariadb-si-write-skew
-- title: With innodb_snapshot_isolation=ON two transactions may each write from a read view that misses the other's write (write skew, allowed)
-- dbms: MariaDB 10.11
-- isolation: repeatable-read
-- targets: mariadb?innodb_snapshot_isolation=ON
-- Each reads both rows and writes a different one: no write of either touches a row the
-- other changed, so both commit. Snapshot isolation allows it (G2-item); the DSG oracle counts
-- it as allowed, never as a bug candidate.
/* init */ CREATE TABLE t (k INT PRIMARY KEY, v INT);
/* init */ INSERT INTO t VALUES (1, 10), (2, 20);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t1 */ SELECT v FROM t WHERE k IN (1, 2);    -- expect: rows [10, 20]
/* t2 */ SELECT v FROM t WHERE k IN (1, 2);    -- expect: rows [10, 20]
/* t1 */ UPDATE t SET v = 0 WHERE k = 1;       -- expect: affected 1
/* t2 */ UPDATE t SET v = 0 WHERE k = 2;       -- expect: affected 1
/* t1 */ COMMIT;
/* t2 */ COMMIT;
-- expect final: t = [(1, 0), (2, 0)]
