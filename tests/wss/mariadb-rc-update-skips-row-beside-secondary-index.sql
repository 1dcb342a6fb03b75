-- id: mariadb-rc-update-skips-row-beside-secondary-index
-- title: READ COMMITTED: an UPDATE skips an uncommitted row, then waits; on a table with a secondary index its scan is still the primary key's
-- isolation: read-committed
-- Reduced from `txhunt fuzz --target mariadb --isolation all --seed 7006`, case 4052 (a bug
-- candidate before). t1's UPDATE skips t3's uncommitted -2 (no committed version: semi-
-- consistent read), then waits at 6, which t3's UPDATE locked; once t3 commits it updates 6
-- and its own 8, never -2. Its WHERE clause names no column of index i, so it scans the
-- primary key: the rows before 6 as they were when it started, the rest when it completed.
/* init */ CREATE TABLE t (k INT NOT NULL CHECK ((k >= -3)), v DECIMAL(3,1) NOT NULL, w VARCHAR(4), x INT, PRIMARY KEY (k));
/* init */ CREATE INDEX i ON t (v);
/* init */ INSERT INTO t (k, v, w, x) VALUES (6, 2, 'b', -1);
/* t1 */ BEGIN;
/* t1 */ REPLACE INTO t (k, v, w, x) VALUES (8, 10, 'b', 7);  -- expect: affected 1
/* t3 */ BEGIN;
/* t3 */ INSERT INTO t (k, v, w, x) VALUES (-2, 9, '', 5);  -- expect: affected 1
/* t3 */ UPDATE t SET w = 'b';  -- expect: affected 1
/* t1 */ UPDATE t SET w = 'a' WHERE x IS NOT NULL;  -- expect: blocked then affected 2
/* t3 */ COMMIT;
/* t1 */ COMMIT;
-- expect final: t = [(-2, 9.0, 'b', 5), (6, 2.0, 'a', -1), (8, 10.0, 'a', 7)]
