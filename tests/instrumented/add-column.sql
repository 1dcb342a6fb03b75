-- id: instrumented-add-column
-- title: A step adds a column: the statements after it name it, and the final state shows it where the case put it
-- Used by crates/txhunt-exec/tests/instrumented.rs: the instrumented run must show what the
-- plain run shows, though the hidden columns stand between `v` and the added `w`.
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);
/* init */ INSERT INTO t VALUES (1, 10), (3, 30);
/* t1 */ ALTER TABLE t ADD COLUMN w INT;
/* t1 */ INSERT INTO t VALUES (2, 20, 5);
/* t1 */ UPDATE t SET w = 7 WHERE k = 1;
/* t1 */ SELECT * FROM t WHERE k < 3;          -- expect: rows [(1, 10, 7), (2, 20, 5)]
-- expect final: t = [(1, 10, 7), (2, 20, 5), (3, 30, NULL)]
