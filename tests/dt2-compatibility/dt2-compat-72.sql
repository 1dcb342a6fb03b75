-- id: dt2-compat-72
-- title: Inconsistent deadlock between MariaDB & TiDB (inconsistent lock mechanism; inconsistent database state)
-- link: https://github.com/tcse-iscas/DT2
-- dbms: MariaDB & TiDB
-- isolation: repeatable-read
-- root-cause: Inconsistent lock mechanism
-- consequence: Inconsistent database state
-- DT² compatibility issue 72 (paper 000 §6): an expected behaviour difference, not a bug.
/* init */ CREATE TABLE t(c1 INT PRIMARY KEY);
/* init */ INSERT INTO t(c1) VALUES (2);
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET c1=3;
/* t2 */ BEGIN;
/* t2 */ DELETE FROM t;
/* t1 */ INSERT INTO t(c1) VALUES (1);
/* t1 */ COMMIT;
/* t2 */ COMMIT;
