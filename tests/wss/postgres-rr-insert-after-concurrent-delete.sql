-- id: postgres-rr-insert-after-concurrent-delete
-- title: At repeatable-read an INSERT of a key a concurrent transaction deleted succeeds, and its transaction then reads two rows with one primary key
-- dbms: PostgreSQL 15
-- isolation: repeatable-read
-- oracles: explicit,wss
-- Minimized from `txhunt fuzz --target postgres --isolation repeatable-read --seed 2026`
-- (case 2148), and reproduced with two psql sessions. t4's snapshot (its first SELECT) still
-- holds row -17 of t2; t1 deletes it and commits; t4's INSERT of key -17 waited for t1, then
-- inserts (the unique check sees t1's delete, which t4's snapshot does not), and t4's next
-- read returns -17 twice from a table whose primary key is c0. No serial order of t1 and t4
-- gives the final state either (t1 → t4 deletes t1's row of t0; t4 → t1 leaves t2 empty).
-- SERIALIZABLE refuses t4 (40001). A snapshot-isolation write conflict on key -17 (t1 deleted
-- it, t4 wrote it) that PostgreSQL does not detect: the WSS oracle reports a bug candidate.
/* init */ CREATE TABLE t0(a0 INT PRIMARY KEY);
/* init */ CREATE TABLE t2(c0 INT PRIMARY KEY);
/* init */ INSERT INTO t2 VALUES (-17);
/* t1 */ BEGIN;
/* t4 */ BEGIN;
/* t4 */ SELECT count(*) FROM t0;  -- expect: rows [0]
/* t1 */ INSERT INTO t0 VALUES (1);
/* t1 */ DELETE FROM t2 WHERE c0 = -17;  -- expect: affected 1
/* t4 */ INSERT INTO t2 VALUES (-17) ON CONFLICT DO NOTHING;
/* t1 */ COMMIT;
/* t4 */ DELETE FROM t0;  -- expect: affected 0
/* t4 */ SELECT c0 FROM t2;  -- expect: rows [-17]
/* t4 */ COMMIT;
