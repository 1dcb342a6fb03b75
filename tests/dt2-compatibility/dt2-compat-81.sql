-- id: dt2-compat-81
-- title: Inconsistent deadlock between MySQL & MariaDB (inconsistent lock mechanism; no difference)
-- link: https://github.com/tcse-iscas/DT2
-- dbms: MySQL & MariaDB
-- isolation: repeatable-read
-- root-cause: Inconsistent lock mechanism
-- consequence: No difference
-- DT² compatibility issue 81 (paper 000 §6): an expected behaviour difference, not a bug.
/* init */ CREATE TABLE t(c1 INT PRIMARY KEY, c2 INT);
/* init */ INSERT INTO t(c1, c2) VALUES (0, 1), (3, 3);
/* t1 */ BEGIN;
/* t1 */ INSERT INTO t(c1, c2) VALUES (5, 5);
/* t2 */ BEGIN;
/* t2 */ UPDATE t SET c2=10 WHERE c1>2;
/* t1 */ DELETE FROM t WHERE c1>3;
/* t1 */ COMMIT;
/* t2 */ COMMIT;
