-- id: mariadb-rc-update-skips-row-beside-secondary-index
-- title: READ COMMITTED: an UPDATE skips an uncommitted row, then waits; on a table with a secondary index its scan is still the primary key's
-- isolation: read-committed
-- Reduced from `txhunt fuzz --target mariadb --isolation all --seed 7006`, case 4052 (a bug
-- candidate before). t1's UPDATE skips t3's uncommitted -1 (no committed version: semi-
-- consistent read), then waits at 5, which t3's UPDATE locked; once t3 commits it updates 5
-- and its own 6, never -1. The UPDATE names no column of index i, so it scans the primary
-- key: the rows before 5 as they were when it started, the rest when it completed.
/* init */ CREATE TABLE t (k INT NOT NULL CHECK ((k >= -2)), v DECIMAL(3,1) NOT NULL, w VARCHAR(4), PRIMARY KEY (k));
/* init */ CREATE INDEX i ON t (v);
/* init */ INSERT INTO t (k, v, w) VALUES (5, 2, 'b');
/* t1 */ BEGIN;
/* t1 */ REPLACE INTO t (k, v, w) VALUES (6, 8, 'b');  -- expect: affected 1
/* t3 */ BEGIN;
/* t3 */ INSERT INTO t (k, v, w) VALUES (-1, 7, '');  -- expect: affected 1
/* t3 */ UPDATE t SET w = 'b';  -- expect: affected 1
/* t1 */ UPDATE t SET w = 'a';  -- expect: blocked then affected 2
/* t3 */ COMMIT;
/* t1 */ COMMIT;
-- expect final: t = [(-1, 7.0, 'b'), (5, 2.0, 'a'), (6, 8.0, 'a')]
