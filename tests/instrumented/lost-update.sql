-- id: instrumented-lost-update
-- title: Two transactions read the same row, then both write it: the history names every version
-- Used by crates/txhunt-exec/tests/instrumented.rs, which states the row versions each step
-- reads and writes. Setup statement 2 writes version init2 of row 1; t1's UPDATE writes #5 over
-- it; t2's UPDATE, if it runs, overwrites whichever version it finds.
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);
/* init */ INSERT INTO t VALUES (1, 10), (2, 20);
/* t1 */ BEGIN;
/* t1 */ SELECT v FROM t WHERE k = 1;
/* t2 */ BEGIN;
/* t2 */ SELECT * FROM t WHERE k = 1;
/* t1 */ UPDATE t SET v = v + 1 WHERE k = 1;
/* t1 */ COMMIT;
/* t2 */ UPDATE t SET v = v + 2 WHERE k = 1;
/* t2 */ COMMIT;
