-- id: dt2-compat-70
-- title: Inconsistent deadlock between MariaDB & TiDB (inconsistent lock mechanism; inconsistent database state)
-- link: https://github.com/tcse-iscas/DT2
-- dbms: MariaDB & TiDB
-- isolation: repeatable-read
-- root-cause: Inconsistent lock mechanism
-- consequence: Inconsistent database state
-- DT² compatibility issue 70 (paper 000 §6): an expected behaviour difference, not a bug.
/* init */ CREATE TABLE t(c1 INT PRIMARY KEY, c2 INT);
/* init */ INSERT INTO t(c1, c2) VALUES (4, 1), (8, 8);
/* t1 */ BEGIN;
/* t1 */ DELETE FROM t WHERE c1<5;
/* t2 */ BEGIN;
/* t2 */ UPDATE t SET c2=2 WHERE c1<6;
/* t1 */ INSERT INTO t(c1) VALUES (3);
/* t1 */ COMMIT;
/* t2 */ COMMIT;
