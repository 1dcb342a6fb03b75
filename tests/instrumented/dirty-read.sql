-- id: instrumented-dirty-read
-- title: A read returns the version an open transaction wrote, which then rolls back
-- Used by crates/txhunt-exec/tests/instrumented.rs.
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);
/* init */ INSERT INTO t VALUES (1, 10);
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET v = 11 WHERE k = 1;
/* t2 */ SELECT v FROM t WHERE k = 1;
/* t1 */ ROLLBACK;
