-- id: sqlite-unique-checked-row-by-row
-- title: An instrumented run is compared with instrumented serial schedules
-- isolation: serializable
-- SQLite checks UNIQUE row by row: visiting 'daY' (31 → 34) before 'ee' (34 → 37), as the
-- plain UPDATE does through index i1, fails; instrumented, the UPDATE visits the rows in
-- another order and succeeds. Compared with a plain serial schedule, the instrumented run
-- would violate WSS (a false bug candidate found by fuzzing SQLite, seed 15).
/* init */ CREATE TABLE t1 (b0 BIGINT NOT NULL, b2 TEXT, b3 INT NOT NULL UNIQUE, PRIMARY KEY (b0));
/* init */ CREATE INDEX i1 ON t1 (b2);
/* init */ INSERT INTO t1 VALUES (110, 'dbcb', -5), (619, 'ee', 34), (711, 'daY', 31), (747, 'e', 47);
/* t1 */ BEGIN;
/* t1 */ UPDATE t1 SET b3 = (t1.b3 + 3) WHERE (b2 >= 'dXb');
/* t1 */ COMMIT;
