-- id: postgres-rc-upsert-after-concurrent-delete
-- title: READ COMMITTED: an upsert after a concurrent DELETE of its key inserts it afresh, as each statement's snapshot says
-- isolation: read-committed
-- Reduced by `txhunt fuzz` itself from `txhunt fuzz --target postgres --isolation
-- read-committed --seed 15`, case 7041 (a bug candidate before). t2's first INSERT collides
-- with the committed row 1; t4 deletes rows 1 and 6 and commits; t2's upsert of 6, on a new
-- statement snapshot, finds no row 6 and inserts it. Neither serial order gives the final
-- state; no snapshot of t2 does (row 6 changes under it); at SERIALIZABLE t3 is refused
-- (another path); at REPEATABLE READ the same case violates WSS too (there it is a bug
-- candidate: the insert of a key deleted concurrently); the SDG cannot record the upserts'
-- collisions. Replayed statement by statement on the state committed when each started,
-- every statement answers as in the run and the changes give the final state.
/* init */ CREATE TABLE t (k INT NOT NULL, PRIMARY KEY (k));
/* init */ CREATE TABLE t2 (v DOUBLE PRECISION, w BOOLEAN, x INT NOT NULL, PRIMARY KEY (x));
/* init */ INSERT INTO t (k) VALUES (1), (6);
/* t2 */ BEGIN;
/* t2 */ INSERT INTO t (k) VALUES (1), (-3) ON CONFLICT DO NOTHING;
/* t4 */ DELETE FROM t;
/* t1 */ BEGIN;
/* t3 */ BEGIN;
/* t1 */ SELECT * FROM t;
/* t2 */ INSERT INTO t (k) VALUES (6) ON CONFLICT(k) DO UPDATE SET k = -2;
/* t3 */ UPDATE t SET k = 4;
/* t2 */ INSERT INTO t2 (v, w, x) VALUES (-1, true, 3) ON CONFLICT(x) DO UPDATE SET v = (t2.v + 1), w = false;
/* t3 */ INSERT INTO t (k) VALUES (5) ON CONFLICT (k) DO UPDATE SET k = 2;
/* t3 */ SELECT * FROM t2;
/* t2 */ COMMIT;
/* t1 */ COMMIT;
/* t3 */ ROLLBACK;
