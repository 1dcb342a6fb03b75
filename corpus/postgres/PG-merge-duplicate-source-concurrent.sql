-- id: postgres-PG-merge-duplicate-source-concurrent
-- title: MERGE must fail when a target row joins two source rows, also when it first waited for a concurrent update of that row
-- link: https://www.postgresql.org/docs/release/15.7/
-- dbms: PostgreSQL 15.0-15.6, 16.0-16.2
-- isolation: read-committed
-- buggy: after waiting for the concurrent MERGE, the second MERGE silently updated the row once (MERGE 1) instead of raising "MERGE command cannot affect row a second time"
-- fixed-in: 15.7, 16.3
-- Comment: the source (VALUES (1), (1)) matches target key 1 twice, which the SQL standard forbids. Without concurrency
-- PostgreSQL raises a cardinality error; when the first match found the row updated by a concurrent transaction and
-- re-checked it, the second match was treated as "already updated by someone else" and skipped.
/* init */ CREATE TABLE pa_target (key integer, val text) PARTITION BY LIST (key);
/* init */ CREATE TABLE part1 (key integer, val text);
/* init */ CREATE TABLE part2 (val text, key integer);
/* init */ CREATE TABLE part3 (key integer, val text);
/* init */ ALTER TABLE pa_target ATTACH PARTITION part1 FOR VALUES IN (1,4);
/* init */ ALTER TABLE pa_target ATTACH PARTITION part2 FOR VALUES IN (2,5,6);
/* init */ ALTER TABLE pa_target ATTACH PARTITION part3 DEFAULT;
/* init */ INSERT INTO pa_target VALUES (1, 'initial');
/* init */ INSERT INTO pa_target VALUES (2, 'initial');
/* t1 */ BEGIN;
/* t1 */ MERGE INTO pa_target t USING (SELECT 1 as key, 'pa_merge1' as val) s ON s.key = t.key WHEN NOT MATCHED THEN INSERT VALUES (s.key, s.val) WHEN MATCHED THEN UPDATE set val = t.val || ' updated by ' || s.val;  -- expect: ok
/* t2 */ BEGIN;
/* t2 */ MERGE INTO pa_target t USING (VALUES (1), (1)) v(a) ON t.key = v.a WHEN MATCHED THEN UPDATE set val = t.val || ' updated by pa_merge2c_dup';  -- expect: blocked then error
/* t1 */ COMMIT;
/* t2 */ ROLLBACK;
-- expect final: pa_target = [(1, 'initial updated by pa_merge1'), (2, 'initial')]
