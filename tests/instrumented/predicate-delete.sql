-- id: instrumented-predicate-delete
-- title: A DELETE by predicate removes a setup version and the transaction's own newer version
-- Used by crates/txhunt-exec/tests/instrumented.rs.
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);
/* init */ INSERT INTO t VALUES (1, 10), (2, 20), (3, 30);
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET v = 25 WHERE k = 3;
/* t1 */ DELETE FROM t WHERE v > 15;
/* t1 */ COMMIT;
