-- id: postgres-rc-write-skew-through-upsert
-- title: READ COMMITTED: a write skew through INSERT … ON CONFLICT DO NOTHING is what REPEATABLE READ allows too
-- isolation: read-committed
-- Minimized from `txhunt fuzz --target postgres --isolation read-committed --seed 31`, case
-- 3665 (a bug candidate before). t1's upsert collides with row 1 and inserts row 2 only; t4
-- deletes the committed rows (row 1; t1's row 2 is not committed) and commits first. Neither
-- serial order gives the final state (t4 → t1 inserts both rows, t1 → t4 deletes row 2): not
-- write-serializable. t1's last read sees t4's commit, so no snapshot of t1 explains the
-- run, and at SERIALIZABLE t1 is refused (another path). At REPEATABLE READ the case takes
-- the run's path and ends in the run's final state — a write skew, which snapshot isolation
-- allows and its replay shows — and READ COMMITTED allows all REPEATABLE READ does.
/* init */ CREATE TABLE t (k INT PRIMARY KEY, v TEXT);
/* init */ INSERT INTO t VALUES (1, 'a');
/* t1 */ BEGIN;
/* t1 */ INSERT INTO t VALUES (1, 'b'), (2, 'c') ON CONFLICT DO NOTHING;  -- expect: affected 1
/* t4 */ BEGIN;
/* t4 */ DELETE FROM t WHERE v IS NOT NULL;  -- expect: affected 1
/* t4 */ COMMIT;
/* t1 */ SELECT v FROM t WHERE v >= 'a';  -- expect: rows [('c')]
/* t1 */ COMMIT;
-- expect final: t = [(2, 'c')]
