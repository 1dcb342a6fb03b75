-- id: dt2-compat-85
-- title: Inconsistent deadlock between MariaDB & TiDB (inconsistent lock mechanism; inconsistent database state)
-- link: https://github.com/tcse-iscas/DT2
-- dbms: MariaDB & TiDB
-- isolation: repeatable-read
-- root-cause: Inconsistent lock mechanism
-- consequence: Inconsistent database state
-- DT² compatibility issue 85 (paper 000 §6): an expected behaviour difference, not a bug.
/* init */ CREATE TABLE t(c1 INT PRIMARY KEY);
/* init */ INSERT INTO t(c1) VALUES (2), (3), (4);
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET c1=1 WHERE c1<3;
/* t2 */ BEGIN;
/* t2 */ DELETE FROM t;
/* t1 */ DELETE FROM t WHERE c1<3;
/* t1 */ COMMIT;
/* t2 */ COMMIT;
