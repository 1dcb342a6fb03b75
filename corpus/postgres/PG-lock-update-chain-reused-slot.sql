-- id: postgres-PG-lock-update-chain-reused-slot
-- title: FOR KEY SHARE following the update chain of a row whose updater aborted must not lock an unrelated row that reused the dead version's slot
-- link: https://www.postgresql.org/docs/release/15.16/
-- dbms: PostgreSQL 15.0-15.15 (and older branches before the same-day releases: 14.21, 16.12, 17.8)
-- isolation: read-committed, repeatable-read, serializable
-- buggy: t2's FOR KEY SHARE on row 1 also locked row 2, so t4's FOR UPDATE NOWAIT on row 2 failed with 55P03 could not obtain lock on row
-- fixed-in: 15.16, 14.21, 16.12, 17.8
-- Comment: t5's KEY SHARE lock plus t1's non-key update give row 1 a MultiXact xmax whose updater then aborts.
-- VACUUM removes the aborted version and frees its line pointer; t3's new row 2 reuses it (ctid (0,2)), while row 1's
-- t_ctid still points there. A KEY SHARE locker must follow the update chain of row 1 to lock newer versions, but it
-- did not check that the first "newer version" was created by row 1's updater (xmin = prior xmax) and locked row 2.
-- Correct: row 2 is not locked by anyone, so FOR UPDATE NOWAIT on it succeeds.
/* init */ CREATE TABLE t (k int PRIMARY KEY, v int) WITH (autovacuum_enabled = false);
/* init */ INSERT INTO t VALUES (1, 10);
/* t5 */ BEGIN;
/* t5 */ SELECT k FROM t WHERE k = 1 FOR KEY SHARE;  -- expect: rows [1]
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET v = 11 WHERE k = 1;  -- expect: affected 1
/* t1 */ ROLLBACK;
/* t3 */ VACUUM t;
/* t3 */ INSERT INTO t VALUES (2, 20);  -- expect: affected 1
/* t3 */ SELECT ctid FROM t WHERE k = 2;  -- expect: rows ['(0,2)']
/* t2 */ BEGIN;
/* t2 */ SELECT k FROM t WHERE k = 1 FOR KEY SHARE;  -- expect: rows [1]
/* t4 */ BEGIN;
/* t4 */ SELECT k FROM t WHERE k = 2 FOR UPDATE NOWAIT;  -- expect: rows [2]
/* t4 */ COMMIT;
/* t2 */ COMMIT;
/* t5 */ COMMIT;
-- expect final: t = [(1, 10), (2, 20)]
