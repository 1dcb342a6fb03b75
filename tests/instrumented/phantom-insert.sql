-- id: instrumented-phantom-insert
-- title: A predicate read repeated after another transaction inserted a matching row
-- Used by crates/txhunt-exec/tests/instrumented.rs.
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);
/* init */ INSERT INTO t VALUES (1, 10);
/* t1 */ BEGIN;
/* t1 */ SELECT k FROM t WHERE v > 5;
/* t2 */ INSERT INTO t VALUES (2, 20);
/* t1 */ SELECT k FROM t WHERE v > 5;
/* t1 */ COMMIT;
