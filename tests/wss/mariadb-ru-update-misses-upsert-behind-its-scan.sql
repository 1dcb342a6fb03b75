-- id: mariadb-ru-update-misses-upsert-behind-its-scan
-- title: READ UNCOMMITTED: an UPDATE that waited for a row its holder then deleted misses the row the holder's upsert inserted behind its scan
-- isolation: read-uncommitted
-- After case 5058 of `txhunt fuzz --target mariadb --isolation all --seed 7013` (a bug
-- candidate). t3's UPDATE scans the primary key and waits at 1, which t4 deleted; t4's upsert
-- inserts 0 behind the scan and 3 ahead of it (it updates no row: it moved none) and t4
-- commits; the UPDATE, resumed, skips the deleted 1 and updates 3 only. t1 then updates the
-- row t3 missed. No serial order leaves (0, 5). On the rows its scan passed before the wait as
-- they were when it started (none) and the rest as they were when it completed, t3 updates
-- one row, as in the run: the waited-for row was deleted, not moved (MDEV-27992 needs an
-- update of it), which the upsert's replay shows although its text may update.
/* init */ CREATE TABLE t (k INT PRIMARY KEY, v INT);
/* init */ INSERT INTO t VALUES (1, 0), (5, 0);
/* t4 */ BEGIN;
/* t4 */ DELETE FROM t;  -- expect: affected 2
/* t3 */ BEGIN;
/* t3 */ UPDATE t SET v = t.v + 1;  -- expect: blocked then affected 1
/* t4 */ INSERT INTO t VALUES (0, 0), (3, 0) ON DUPLICATE KEY UPDATE v = t.v + 10;  -- expect: affected 2
/* t4 */ COMMIT;
/* t3 */ COMMIT;
/* t1 */ UPDATE t SET v = t.v + 5 WHERE v = 0;  -- expect: affected 1
-- expect final: t = [(0, 5), (3, 1)]
