-- id: postgres-rr-write-skew-order-dependent-unique
-- title: REPEATABLE READ: a write skew through ON CONFLICT DO NOTHING, beside an UPDATE whose unique check depends on row order
-- dbms: PostgreSQL 15
-- isolation: repeatable-read
-- oracles: explicit,wss
-- Minimized from `txhunt fuzz --target postgres --seed 501` (case 561), a bug candidate
-- before. t3's upsert collides with key -1 and inserts 16; t1 (autocommit) shifts every
-- committed key by one and commits first. Neither serial order gives the final state (t1 → t3
-- inserts -1 too, t3 → t1 shifts 16): a write skew, which snapshot isolation allows. The
-- replay that shows it runs t1 alone on its snapshot, the initial state: restored from the
-- state's rows in value order (-1, 2, 3), `UPDATE t SET k = t.k + 1` fails on key 3, since
-- PostgreSQL checks UNIQUE row by row; in the setup's order (-1, 3, 2) it succeeds, as in
-- the run. The initial state is therefore left as the setup wrote it.
/* init */ CREATE TABLE t (k DOUBLE PRECISION UNIQUE);
/* init */ INSERT INTO t (k) VALUES (-1), (3), (2);
/* t3 */ BEGIN;
/* t3 */ INSERT INTO t (k) VALUES (-1), (16.0) ON CONFLICT DO NOTHING;  -- expect: affected 1
/* t1 */ UPDATE t SET k = t.k + 1;  -- expect: affected 3
/* t3 */ COMMIT;
