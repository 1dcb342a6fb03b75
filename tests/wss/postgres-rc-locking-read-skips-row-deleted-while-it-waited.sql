-- id: postgres-rc-locking-read-skips-row-deleted-while-it-waited
-- title: READ COMMITTED: a SELECT FOR UPDATE that waited for a DELETE of the row it found skips that row, as PostgreSQL's re-check does
-- isolation: read-committed
-- oracles: explicit,wss
-- Reduced by `txhunt fuzz --target postgres --isolation all --seed 7001` itself, case 4512 (a
-- bug candidate before). t3's upsert inserts -1 (3 exists); t1 deletes 3, the one row
-- committed; t2's SELECT FOR UPDATE finds 3 in its snapshot and waits for t1; t3 and t1
-- commit; the re-check finds 3 deleted and skips it, and -1 was never in t2's snapshot: rows
-- []. Neither serial order gives the final state (-1); at REPEATABLE READ the same case
-- violates WSS too, and at SERIALIZABLE t1 is refused (another path). Alone on the state
-- committed when it started, t2's SELECT answers 3; on the rows of that state still there
-- when it completed (3 deleted), it answers none, as in the run: READ COMMITTED.
/* init */ CREATE TABLE t (k INT NOT NULL, PRIMARY KEY (k));
/* init */ CREATE TABLE t2 (v DECIMAL(2,1));
/* init */ INSERT INTO t (k) VALUES (3);
/* init */ INSERT INTO t2 (v) VALUES (4);
/* t2 */ BEGIN;
/* t3 */ BEGIN;
/* t2 */ DELETE FROM t2;  -- expect: affected 1
/* t1 */ BEGIN;
/* t3 */ INSERT INTO t (k) VALUES (-1), (3) ON CONFLICT DO NOTHING;  -- expect: affected 1
/* t1 */ DELETE FROM t;  -- expect: affected 1
/* t2 */ SELECT * FROM t FOR UPDATE;  -- expect: rows []
/* t2 */ COMMIT;
/* t3 */ COMMIT;
/* t1 */ COMMIT;
