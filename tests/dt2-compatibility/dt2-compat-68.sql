-- id: dt2-compat-68
-- title: Inconsistent deadlock between MariaDB & TiDB (inconsistent lock mechanism; inconsistent database state)
-- link: https://github.com/tcse-iscas/DT2
-- dbms: MariaDB & TiDB
-- isolation: repeatable-read
-- root-cause: Inconsistent lock mechanism
-- consequence: Inconsistent database state
-- DT² compatibility issue 68 (paper 000 §6): an expected behaviour difference, not a bug.
/* init */ CREATE TABLE t(c1 INT PRIMARY KEY, c2 INT);
/* init */ INSERT INTO t(c1, c2) VALUES (3, NULL), (5, 9);
/* t1 */ BEGIN;
/* t1 */ DELETE FROM t WHERE c1<5;
/* t2 */ BEGIN;
/* t2 */ DELETE FROM t;
/* t1 */ INSERT INTO t(c1, c2) VALUES (2, 2);
/* t1 */ COMMIT;
/* t2 */ COMMIT;
