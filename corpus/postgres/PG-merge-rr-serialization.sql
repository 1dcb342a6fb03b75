-- id: postgres-PG-merge-rr-serialization
-- title: MERGE at REPEATABLE READ / SERIALIZABLE must fail with a serialization error when its target row was updated by a concurrent committed transaction
-- link: https://www.postgresql.org/docs/release/15.18/
-- dbms: PostgreSQL 15.0-15.17, 16.0-16.13, 17.0-17.9
-- isolation: repeatable-read, serializable
-- buggy: MERGE behaved as in READ COMMITTED: it waited, then applied its action to the newer row version and succeeded (lost update)
-- fixed-in: 15.18, 16.14, 17.10
-- Comment: t2's snapshot predates t1's committed update of row 1, so a plain UPDATE in t2 fails with "could not
-- serialize access due to concurrent update"; MERGE has to do the same instead of re-checking the newer version.
/* init */ CREATE TABLE target (key int PRIMARY KEY, val int);
/* init */ INSERT INTO target VALUES (1, 10);
/* t2 */ BEGIN;
/* t2 */ SELECT val FROM target WHERE key = 1;  -- expect: rows [10]
/* t1 */ BEGIN;
/* t1 */ UPDATE target SET val = val + 1 WHERE key = 1;  -- expect: affected 1
/* t2 */ MERGE INTO target t USING (SELECT 1 AS key) s ON s.key = t.key WHEN MATCHED THEN UPDATE SET val = t.val * 100;  -- expect: blocked then error serialization
/* t1 */ COMMIT;
/* t2 */ COMMIT;
-- expect final: target = [(1, 11)]
