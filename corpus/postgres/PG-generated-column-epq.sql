-- id: postgres-PG-generated-column-epq
-- title: A READ COMMITTED UPDATE re-applied to a concurrently updated row must recompute stored GENERATED columns
-- link: https://www.postgresql.org/docs/release/15.3/
-- dbms: PostgreSQL 12.0-12.14, 13.0-13.10, 14.0-14.7, 15.0-15.2
-- isolation: read-committed
-- buggy: the generated column kept the value computed from the row version the UPDATE first saw, ignoring the concurrent change to b
-- fixed-in: 15.3, 14.8, 13.11, 12.15
-- Comment: c is a stored generated column a + b. t1 changes b and t2's UPDATE of a waits for it; after t1 commits,
-- t2 re-applies its change to the new row version (EvalPlanQual). c has to be recomputed from that version:
-- a = 2, b = 100, so c = 102.
/* init */ CREATE TABLE t (k int PRIMARY KEY, a int, b int, c int GENERATED ALWAYS AS (a + b) STORED);
/* init */ INSERT INTO t (k, a, b) VALUES (1, 1, 10);
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET b = 100 WHERE k = 1;  -- expect: affected 1
/* t2 */ BEGIN;
/* t2 */ UPDATE t SET a = a + 1 WHERE k = 1;  -- expect: blocked then affected 1
/* t1 */ COMMIT;
/* t2 */ SELECT a, b, c FROM t WHERE k = 1;  -- expect: rows [(2, 100, 102)]
/* t2 */ COMMIT;
-- expect final: t = [(1, 2, 100, 102)]
