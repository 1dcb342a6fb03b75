-- id: postgres-PG-18103-merge-epq-join
-- title: A READ COMMITTED MERGE joined to a source table by hash join must use the right source row when re-checking a concurrently updated target row
-- link: https://www.postgresql.org/docs/release/15.5/ (bug #18103)
-- dbms: PostgreSQL 15.0-15.4
-- isolation: read-committed
-- buggy: the waiting MERGE failed with 23505 duplicate key value violates unique constraint "tgt_pkey": its re-check of the updated target rows did not see the matching source rows, so it took the NOT MATCHED (INSERT) branch
-- fixed-in: 15.5, 16.1
-- Comment: both transactions run the same MERGE; t2's waits for t1's row locks. When t1 commits, t2 re-checks each
-- updated target row against the join (EvalPlanQual). With a hash (or merge) join, the re-check did not use the
-- source row the target row was joined to, so the still-matching rows were treated as not matched and re-inserted.
-- Correct: t2 finds every row matched and sets the same values again.
/* init */ CREATE TABLE src (id int PRIMARY KEY, val int);
/* init */ CREATE TABLE tgt (id int PRIMARY KEY, val int);
/* init */ INSERT INTO src SELECT x, x*10 FROM generate_series(1,3) g(x);
/* init */ INSERT INTO tgt SELECT x, x FROM generate_series(1,3) g(x);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t1 */ MERGE INTO tgt USING src ON tgt.id = src.id WHEN MATCHED THEN UPDATE SET val = src.val WHEN NOT MATCHED THEN INSERT VALUES (src.id, src.val);  -- expect: ok
/* t2 */ SET LOCAL enable_mergejoin = off;
/* t2 */ SET LOCAL enable_nestloop = off;
/* t2 */ MERGE INTO tgt USING src ON tgt.id = src.id WHEN MATCHED THEN UPDATE SET val = src.val WHEN NOT MATCHED THEN INSERT VALUES (src.id, src.val);  -- expect: blocked then ok
/* t1 */ COMMIT;
/* t2 */ COMMIT;
-- expect final: tgt = [(1, 10), (2, 20), (3, 30)]
