-- id: postgres-rr-upsert-inserts-after-wait
-- title: An upsert that inserted in the run but updates in the sequential order differs there
-- isolation: repeatable-read
-- From `txhunt fuzz --target postgres@12 --seed 19` (case 506; the same on 15.20 and 18.4).
-- t1's upsert collides with the row t2 is deleting, waits for t2, and then inserts a new row
-- (PostgreSQL's uniqueness check reads the latest committed state; documented, "Index
-- Uniqueness Checks"). Its conflict check is no recorded read, so the graph has no edge from
-- t2's DELETE to it, and in the sequential order it runs before the DELETE and takes the DO
-- UPDATE branch: "affected 1" either way. Compared by outcome alone it matched, and the
-- final state's difference was reported as a bug; the kinds of its writes (an insert in the
-- run, an update there) tell the statements apart, and the placement finds the order.
/* init */ CREATE TABLE t (k DECIMAL(2, 1) NOT NULL DEFAULT 3, v INT NOT NULL, PRIMARY KEY (v));
/* init */ CREATE TABLE t2 (w INT NOT NULL, PRIMARY KEY (w));
/* init */ INSERT INTO t (k, v) VALUES (5, -1);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t2 */ DELETE FROM t;
/* t1 */ INSERT INTO t (k, v) VALUES (-2, -1) ON CONFLICT (v) DO UPDATE SET k = 4;
/* t1 */ SELECT * FROM t2 WHERE w IN (SELECT k FROM t) FOR UPDATE;
/* t1 */ COMMIT;
/* t2 */ COMMIT;
