-- id: postgres-ssi-needless-abort
-- title: SERIALIZABLE: PostgreSQL 15 aborts a transaction that PostgreSQL 18 commits, both serializable
-- dbms: PostgreSQL 15.20 vs PostgreSQL 18.4
-- isolation: serializable
-- pair: postgres postgres@other
-- differential: error needless-refusal
-- Found by `txhunt fuzz --target postgres --target postgres@BIN --seed 2026` (case 2294),
-- minimized from 26 statements by deleting statements while the discrepancy held.
-- t1's INSERT … ON CONFLICT DO NOTHING skips key -6 (committed by t4 before t1's snapshot)
-- and inserts 48 and 49; t4's autocommit UPDATE then rewrites every row t1 cannot see.
-- PostgreSQL 15 sees an rw-conflict cycle (t1 read row -6, which t4 rewrote; t4's scan
-- missed t1's rows) and aborts t1 at COMMIT. PostgreSQL 18 commits t1: the run equals the
-- serial order t4#1 → t4#2 → t1 (t1 skips -6 and inserts 48 and 49 either way), so it is
-- serializable; SSI may abort needlessly (PostgreSQL documentation §13.2.3) and 18 simply
-- does so less here. Both runs are write-serializable: a concurrency-control difference.
/* init */ CREATE TABLE t0 (a0 INT NOT NULL, a1 BIGINT, a2 DOUBLE PRECISION, PRIMARY KEY (a0));
/* t1 */ BEGIN;
/* t4 */ INSERT INTO t0 (a0, a1, a2) VALUES (-9, -197, 16.5), (-6, 57, -4.5), (28, -784, -4.5);
/* t1 */ INSERT INTO t0 (a0, a1, a2) VALUES (-6, -125, -7.5), (48, -784, 2.0), (49, -784, -4.0) ON CONFLICT DO NOTHING;  -- expect: affected 2
/* t4 */ UPDATE t0 SET a1 = -189 WHERE (a1 >= -784);  -- expect: affected 3
/* t1 */ COMMIT;
