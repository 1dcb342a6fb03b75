-- id: mariadb-ru-delete-misses-insert-behind-its-scan
-- title: READ UNCOMMITTED: a DELETE that waited misses the row inserted behind its scan meanwhile, as InnoDB's locking scan without gap locks reads it
-- isolation: read-uncommitted
-- Reduced from `txhunt fuzz --target mariadb --isolation all --seed 7002`, case 20032 (a bug
-- candidate before). t3's DELETE scans the primary key and waits at (6, 8), which t4 deleted;
-- t5 inserts (-2, -1) behind it (no gap lock below REPEATABLE READ); t4 rolls back, and the
-- DELETE, resumed, deletes (6, 8) only. t1 then updates the row t3 missed. No serial order
-- leaves (-2, -1); on the newest versions when it completed, t3 would delete both rows. On
-- the rows its scan passed before the wait as they were when it started (none) and the rest
-- as they were when it completed ((6, 8)), it deletes one, as in the run, and every later
-- write replays.
/* init */ CREATE TABLE t (k INT NOT NULL, v INT NOT NULL, w INT, x INT, PRIMARY KEY (k, v));
/* init */ INSERT INTO t (k, v, w, x) VALUES (6, 8, 4, 1);
/* t4 */ BEGIN;
/* t4 */ DELETE FROM t;  -- expect: affected 1
/* t3 */ DELETE FROM t;  -- expect: blocked then affected 1
/* t5 */ INSERT INTO t (k, v, w, x) VALUES (-2, -1, 7, 5) ON DUPLICATE KEY UPDATE w = t.w + 2;  -- expect: affected 1
/* t4 */ ROLLBACK;
/* t1 */ UPDATE t SET x = t.x + 3;  -- expect: affected 1
-- expect final: t = [(-2, -1, 7, 8)]
