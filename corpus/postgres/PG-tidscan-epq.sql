-- id: postgres-PG-tidscan-epq
-- title: A READ COMMITTED UPDATE ... WHERE ctid = ... must re-check the ctid condition on the concurrently updated row version
-- link: https://www.postgresql.org/docs/release/15.15/
-- dbms: PostgreSQL 13.0-13.22, 14.0-14.19, 15.0-15.14, 16.0-16.10, 17.0-17.6
-- isolation: read-committed
-- buggy: the TID scan did not re-check its ctid condition during EvalPlanQual, so the waiting UPDATE modified the new row version (affected 1) although that version has another ctid
-- fixed-in: 15.15, 17.7, 16.11, 14.20, 13.23
-- Comment: the row starts at ctid (0,1). t1's update moves it to (0,2). t2's UPDATE ... WHERE ctid = '(0,1)' waits
-- for t1, then follows the update chain; the new version is not at (0,1), so the re-check must reject it and t2
-- updates nothing (as it does when the planner picks a sequential scan instead of a TID scan).
/* init */ CREATE TABLE t (k int, v int);
/* init */ INSERT INTO t VALUES (1, 10);
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET v = 11 WHERE k = 1;  -- expect: affected 1
/* t2 */ BEGIN;
/* t2 */ UPDATE t SET v = v * 100 WHERE ctid = '(0,1)';  -- expect: blocked then affected 0
/* t1 */ COMMIT;
/* t2 */ COMMIT;
-- expect final: t = [(1, 11)]
