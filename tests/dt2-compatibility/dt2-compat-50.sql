-- id: dt2-compat-50
-- title: Inconsistent blocked statements between MariaDB & TiDB (inconsistent lock mechanism; inconsistent query result)
-- link: https://github.com/tcse-iscas/DT2
-- dbms: MariaDB & TiDB
-- isolation: repeatable-read
-- root-cause: Inconsistent lock mechanism
-- consequence: Inconsistent query result
-- DT² compatibility issue 50 (paper 000 §6): an expected behaviour difference, not a bug.
/* init */ CREATE TABLE t(c1 INT, c2 INT);
/* init */ INSERT INTO t(c1, c2) VALUES (2, NULL);
/* t1 */ BEGIN;
/* t1 */ INSERT INTO t(c1, c2) VALUES (3, 3);
/* t2 */ BEGIN;
/* t2 */ SELECT * FROM t WHERE c1 FOR UPDATE;
/* t1 */ COMMIT;
/* t2 */ COMMIT;
