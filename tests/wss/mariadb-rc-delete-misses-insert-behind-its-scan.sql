-- id: mariadb-rc-delete-misses-insert-behind-its-scan
-- title: READ COMMITTED: a DELETE that waited misses the row inserted behind its scan, where neither variant of the missing gap lock takes the run's path
-- isolation: read-committed
-- Reduced from `txhunt fuzz --target mariadb --isolation all --seed 7006`, case 7150 (a bug
-- candidate before). t3's DELETE waits at t2's uncommitted 7; t2 inserts -2 behind it (no
-- gap lock) and commits; the DELETE, resumed, deletes 7 only. At REPEATABLE READ t3 is a
-- deadlock victim, and without the inserts t1 is not: other paths. Replayed on the rows its
-- scan passed before the wait as they were when it started (none) and the rest as they were
-- when it completed (7), the DELETE deletes one row, as in the run.
/* init */ CREATE TABLE t (k BIGINT NOT NULL, v INT, PRIMARY KEY (k));
/* init */ CREATE TABLE t2 (w TEXT NOT NULL DEFAULT 'a', x DOUBLE, y INT);
/* init */ CREATE INDEX i ON t2 (y);
/* init */ INSERT INTO t2 (w, x, y) VALUES ('', -1, 1);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t2 */ INSERT INTO t (k, v) VALUES (7, 3);  -- expect: affected 1
/* t3 */ BEGIN;
/* t1 */ DELETE FROM t WHERE v IN (SELECT x FROM t2 WHERE (w >= ''));  -- expect: blocked then error deadlock
/* t2 */ DELETE FROM t2 WHERE y IS NULL;  -- expect: affected 0
/* t3 */ INSERT INTO t2 (w, x, y) VALUES ('', 5, 2);  -- expect: affected 1
/* t3 */ DELETE FROM t;  -- expect: blocked then affected 1
/* t2 */ INSERT IGNORE INTO t (k, v) VALUES (-2, 4), (7, 6);  -- expect: affected 1
/* t3 */ COMMIT;
/* t2 */ COMMIT;
/* t1 */ ROLLBACK;
-- expect final: t = [(-2, 4)]
