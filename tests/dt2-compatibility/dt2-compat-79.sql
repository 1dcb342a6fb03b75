-- id: dt2-compat-79
-- title: Inconsistent deadlock between MySQL & MariaDB (inconsistent lock mechanism; inconsistent database state)
-- link: https://github.com/tcse-iscas/DT2
-- dbms: MySQL & MariaDB
-- isolation: repeatable-read
-- root-cause: Inconsistent lock mechanism
-- consequence: Inconsistent database state
-- DT² compatibility issue 79 (paper 000 §6): an expected behaviour difference, not a bug.
/* init */ CREATE TABLE t(c1 INT PRIMARY KEY, c2 INT);
/* init */ INSERT INTO t(c1) VALUES (3), (5);
/* t1 */ BEGIN;
/* t1 */ INSERT INTO t(c1) VALUES (2);
/* t2 */ BEGIN;
/* t2 */ DELETE FROM t;
/* t1 */ DELETE FROM t WHERE c1<4;
/* t1 */ COMMIT;
/* t2 */ COMMIT;
