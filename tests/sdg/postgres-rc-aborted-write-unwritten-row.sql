-- id: postgres-rc-aborted-write-unwritten-row
-- title: A statement failing in the sequential order is not placed by a row only an aborted transaction wrote
-- isolation: read-committed
-- oracles: explicit,sdg
-- Reduced by `txhunt fuzz --target postgres --isolation read-committed --seed 7003` itself,
-- case 4842 (a bug candidate before). t1 deletes row 2, then its UPDATE fails (23505) and
-- aborts t1: its delete is undone. t4 deletes -3 and inserts it again. The first sequential
-- order put t4's INSERT before its DELETE (no recorded dependency joins them: an INSERT's
-- key check is not recorded), where it collides with -3. Every current row the INSERT did not
-- observe was a candidate for the collision, row 2 too, which only aborted t1 wrote; it
-- exists throughout in every order, so no place fitted and the oracle gave up. Rows only an
-- aborted transaction wrote are now no candidates: placed after t4's DELETE, the INSERT runs.
/* init */ CREATE TABLE t (k INT NOT NULL, PRIMARY KEY (k));
/* init */ INSERT INTO t (k) VALUES (-3), (2), (-1);
/* t4 */ BEGIN;
/* t1 */ BEGIN;
/* t1 */ DELETE FROM t WHERE k >= 1;  -- expect: affected 1
/* t1 */ UPDATE t SET k = 3;  -- expect: error constraint
/* t4 */ DELETE FROM t WHERE k <= -2;  -- expect: affected 1
/* t3 */ INSERT INTO t (k) VALUES (-2);  -- expect: affected 1
/* t4 */ INSERT INTO t (k) VALUES (-3);  -- expect: affected 1
/* t1 */ COMMIT;
/* t3 */ SELECT * FROM t;  -- expect: rows [(-3), (2), (-1), (-2)]
/* t4 */ COMMIT;
