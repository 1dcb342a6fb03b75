-- id: postgres-PG-merge-concurrent-update-trigger
-- title: MERGE on a table with BEFORE ROW triggers, waiting on a concurrently updated row, must re-check its WHEN clauses on the new row version
-- link: https://www.postgresql.org/docs/release/15.3/
-- dbms: PostgreSQL 15.0-15.2
-- isolation: read-committed
-- buggy: the backend running the MERGE crashed once the concurrent UPDATE committed (server restart, connection closed)
-- fixed-in: 15.3
-- Comment: a target table with a BEFORE ROW trigger makes MERGE take a different code path when the row it wants to
-- update was updated by a transaction that commits while MERGE waits. The fix ("Fix MERGE problems with concurrent
-- updates") re-evaluates the WHEN MATCHED conditions, from the first one, on the latest row version: the concurrent
-- update set status 's2', so the second action (status 's3', ' when2') must run. The last statement is a liveness probe
-- on a fresh session, not part of the original test.
/* init */ CREATE TABLE target_tg (key int primary key, balance integer, status text, val text);
/* init */ CREATE FUNCTION target_tg_trig_fn() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN IF tg_op = ''DELETE'' THEN RETURN OLD; END IF; RETURN NEW; END';
/* init */ CREATE TRIGGER target_tg_trig BEFORE INSERT OR UPDATE OR DELETE ON target_tg FOR EACH ROW EXECUTE FUNCTION target_tg_trig_fn();
/* init */ INSERT INTO target_tg VALUES (1, 160, 's1', 'setup');
/* t2 */ BEGIN;
/* t2 */ UPDATE target_tg t SET status = 's2', val = t.val || ' updated by update2' WHERE t.key = 1;  -- expect: affected 1
/* t1 */ BEGIN;
/* t1 */ MERGE INTO target_tg t USING (SELECT 1 as key) s ON s.key = t.key WHEN MATCHED AND status = 's1' THEN UPDATE SET status = 's2', val = t.val || ' when1' WHEN MATCHED AND status = 's2' THEN UPDATE SET status = 's3', val = t.val || ' when2' WHEN MATCHED AND status = 's3' THEN UPDATE SET status = 's4', val = t.val || ' when3';  -- expect: blocked then ok
/* t2 */ COMMIT;
/* t1 */ COMMIT;  -- expect: ok
/* t3 */ SELECT 1;  -- expect: rows [1]
-- expect final: target_tg = [(1, 160, 's3', 'setup updated by update2 when2')]
