-- id: postgres-PG-merge-cte-trigger-concurrent
-- title: MERGE inside a WITH query, on a table with BEFORE ROW triggers, must survive a concurrent update of its target row and re-check its WHEN clauses
-- link: https://www.postgresql.org/docs/release/17.6/
-- dbms: PostgreSQL 17.0-17.5
-- isolation: read-committed
-- buggy: the backend running the MERGE crashed once the concurrent UPDATE committed (update action); a delete action could run the wrong action
-- fixed-in: 17.6
-- Comment: PostgreSQL 17 allows MERGE ... RETURNING inside a CTE. With a BEFORE ROW trigger on the target, a MERGE
-- that waited for a concurrent UPDATE took a code path that did not handle the concurrently updated row. Correct: t2
-- set balance 50, so the re-check picks the first action (balance < 100): balance 100, val ending ' when1'. The
-- last statement is a liveness probe on a fresh session, not part of the original test.
-- The MERGE states no outcome of its own (the final state and the fresh session do): versions before 17 reject
-- MERGE in a WITH clause, which is then a dialect gap (n/a), not a reproduction.
/* init */ CREATE TABLE target_tg (key int primary key, balance integer, status text, val text);
/* init */ CREATE FUNCTION target_tg_trig_fn() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN IF tg_op = ''DELETE'' THEN RETURN OLD; END IF; RETURN NEW; END';
/* init */ CREATE TRIGGER target_tg_trig BEFORE INSERT OR UPDATE OR DELETE ON target_tg FOR EACH ROW EXECUTE FUNCTION target_tg_trig_fn();
/* init */ INSERT INTO target_tg VALUES (1, 160, 's1', 'setup');
/* t2 */ BEGIN;
/* t2 */ UPDATE target_tg t SET balance = 50, val = t.val || ' updated by update_bal1_tg' WHERE t.key = 1;  -- expect: affected 1
/* t1 */ BEGIN;
/* t1 */ WITH m AS (MERGE INTO target_tg t USING (SELECT 1 as key) s ON s.key = t.key WHEN MATCHED AND balance < 100 THEN UPDATE SET balance = balance * 2, val = t.val || ' when1' WHEN MATCHED AND balance < 200 THEN UPDATE SET balance = balance * 4, val = t.val || ' when2' WHEN MATCHED AND balance < 300 THEN UPDATE SET balance = balance * 8, val = t.val || ' when3' RETURNING t.*) SELECT * FROM m;
/* t2 */ COMMIT;
/* t1 */ COMMIT;  -- expect: ok
/* t3 */ SELECT 1;  -- expect: rows [1]
-- expect final: target_tg = [(1, 100, 's1', 'setup updated by update_bal1_tg when1')]
