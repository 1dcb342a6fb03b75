-- id: postgres-ssi-conflict-or-unique-violation
-- title: SERIALIZABLE: the same INSERT fails with a serialization failure on PostgreSQL 15, a unique violation on 18
-- dbms: PostgreSQL 15.20 vs PostgreSQL 18.4
-- isolation: serializable
-- pair: postgres postgres@other
-- differential: error needless-refusal
-- Found by `txhunt fuzz --target postgres --target postgres@BIN --seed 2026` (case 2294, the
-- discrepancy as reported), minimized from 26 statements by deleting statements while it
-- held. The same rw-conflict as postgres-ssi-needless-abort.sql: PostgreSQL 15 reports it at
-- t1's next write (40001); PostgreSQL 18 does not see a dangerous structure, and the INSERT
-- meets key -9, which t4 committed before t1's snapshot (23505). Either error aborts t1.
/* init */ CREATE TABLE t0 (a0 INT NOT NULL, a1 BIGINT, a2 DOUBLE PRECISION, PRIMARY KEY (a0));
/* t1 */ BEGIN;
/* t4 */ INSERT INTO t0 (a0, a1, a2) VALUES (-9, -197, 16.5), (-6, 57, -4.5), (28, -784, -4.5);
/* t1 */ INSERT INTO t0 (a0, a1, a2) VALUES (-6, -125, -7.5), (48, -784, 2.0), (49, -784, -4.0) ON CONFLICT DO NOTHING;
/* t4 */ UPDATE t0 SET a1 = -189 WHERE (a1 >= -784);
/* t1 */ INSERT INTO t0 (a0, a1, a2) VALUES (-9, 112, 2.75);
/* t1 */ COMMIT;
-- expect final: t0 = [(-9, -189, 16.5), (-6, -189, -4.5), (28, -189, -4.5)]
