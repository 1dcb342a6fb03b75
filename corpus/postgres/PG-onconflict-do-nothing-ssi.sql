-- id: postgres-PG-onconflict-do-nothing-ssi
-- title: INSERT … ON CONFLICT DO NOTHING at SERIALIZABLE must take an SIREAD lock on the existing row it conflicts with, so a concurrent DELETE of that row cannot escape write-skew detection
-- link: https://www.postgresql.org/message-id/attachment/196997/0001-Add-isolation-tests-for-ON-CONFLICT-no-op-SSI-false-.patch
-- dbms: PostgreSQL before the fix (reproduced on 12.22, 15.18, 17.10, 18.4)
-- isolation: serializable
-- buggy: both transactions committed; t2's DELETE removed only row 'a' and the table ended as [('b')], which no serial order gives (t1;t2 → [], t2;t1 → [('a'), ('b')]). pg_locks showed no SIReadLock at all after t1's INSERT.
-- fixed-in: 15.20 (Debian 15.20-0+deb12u1 behaves correctly; 15.19 and the matching 16/17/18 minors were not available to replay)
-- source: found by txhunt (fuzz-19-7342, wss tx-wss:final-state), reduced; the fix is Andrey Borodin's "ON CONFLICT no-op SSI false negatives" patch set (pgsql-hackers, 2026-06-01: isolation specs serializable-onconflict-do-nothing / serializable-onconflict-noop-update plus the fix); the committed hash was not found in the searchable corpora
-- Comment: t1's ON CONFLICT DO NOTHING reads row 'a' (it decides not to insert because 'a' exists) and inserts
-- 'b'. t2's snapshot predates t1's commit, so its DELETE FROM t scans the table without seeing 'b' (rw-antidependency
-- t2 → t1) and deletes 'a', which t1 read (t1 → t2): a dangerous structure with t2 as pivot. Before the fix the
-- conflict arbiter path read 'a' without an SIREAD lock, so the t1 → t2 edge was invisible and both committed.
-- Fixed versions hold an SIReadLock on the conflicting tuple (page 0, tuple 1) and cancel t2's DELETE with 40001
-- "Canceled on identification as a pivot, during write". The same fix covers ON CONFLICT DO UPDATE … WHERE when
-- the WHERE clause is false (no update, but the row was read).
/* init */ CREATE TABLE t (k VARCHAR(1) NOT NULL, PRIMARY KEY (k));
/* init */ CREATE TABLE t2 (v BOOLEAN DEFAULT false);
/* init */ INSERT INTO t (k) VALUES ('a');
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t1 */ INSERT INTO t (k) VALUES ('b'), ('a') ON CONFLICT DO NOTHING;  -- expect: affected 1
/* t2 */ SELECT * FROM t2;  -- expect: rows []
/* t1 */ COMMIT;
/* t2 */ DELETE FROM t;  -- expect: error serialization
/* t2 */ COMMIT;
-- expect final: t = [('a'), ('b')]
