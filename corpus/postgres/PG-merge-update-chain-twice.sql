-- id: postgres-PG-merge-update-chain-twice
-- title: A READ COMMITTED MERGE whose target row was updated twice while it waited must evaluate its WHEN conditions on the latest row version
-- link: https://www.postgresql.org/docs/release/15.15/
-- dbms: PostgreSQL 15.0-15.14, 16.0-16.10, 17.0-17.6
-- isolation: read-committed
-- buggy: MERGE did nothing: after locking the latest row version it re-read an intermediate version (status 'b', from a stale ctid of the lock-and-retry code) and found no WHEN clause matching it
-- fixed-in: 15.15, 16.11, 17.7
-- nondeterministic: the buggy versions fail it in some runs only, with the same schedule (15.1: 2 of 4 runs; 15.14: 3 of 3); the fixed ones pass every run
-- Comment: t1 changes status 'a' to 'b'; t2's UPDATE (back to 'a') and then t3's MERGE queue behind it. When t1
-- commits, t2 creates a third row version and commits, so the row MERGE first saw has been updated twice. MERGE must
-- re-check its condition on the newest version (status 'a' again) and append ' m3'. Not part of the release note's
-- own test: this schedule was derived from the described failure (two concurrent updates of the target row).
/* init */ CREATE TABLE target (key int PRIMARY KEY, status text, val text);
/* init */ INSERT INTO target VALUES (1, 'a', 'setup');
/* t1 */ BEGIN;
/* t1 */ UPDATE target SET status = 'b', val = val || ' u1' WHERE key = 1;  -- expect: affected 1
/* t2 */ BEGIN;
/* t2 */ UPDATE target SET status = 'a', val = val || ' u2' WHERE key = 1;  -- expect: blocked then affected 1
/* t3 */ BEGIN;
/* t3 */ MERGE INTO target t USING (SELECT 1 AS key) s ON s.key = t.key WHEN MATCHED AND t.status = 'a' THEN UPDATE SET val = t.val || ' m3';  -- expect: blocked then ok
/* t1 */ COMMIT;
/* t2 */ COMMIT;
/* t3 */ COMMIT;
-- expect final: target = [(1, 'a', 'setup u1 u2 m3')]
