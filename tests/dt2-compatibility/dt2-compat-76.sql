-- id: dt2-compat-76
-- title: Inconsistent deadlock between MariaDB & TiDB (inconsistent lock mechanism; no difference)
-- link: https://github.com/tcse-iscas/DT2
-- dbms: MariaDB & TiDB
-- isolation: repeatable-read
-- root-cause: Inconsistent lock mechanism
-- consequence: No difference
-- DT² compatibility issue 76 (paper 000 §6): an expected behaviour difference, not a bug.
/* init */ CREATE TABLE t(c1 INT PRIMARY KEY);
/* init */ INSERT INTO t(c1) VALUES (3);
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET c1=2;
/* t2 */ BEGIN;
/* t2 */ UPDATE t SET c1=1;
/* t1 */ UPDATE t SET c1=1;
/* t1 */ COMMIT;
/* t2 */ COMMIT;
