-- id: dt2-compat-88
-- title: Inconsistent deadlock between MariaDB & TiDB (inconsistent lock mechanism; no difference)
-- link: https://github.com/tcse-iscas/DT2
-- dbms: MariaDB & TiDB
-- isolation: repeatable-read
-- root-cause: Inconsistent lock mechanism
-- consequence: No difference
-- DT² compatibility issue 88 (paper 000 §6): an expected behaviour difference, not a bug.
/* init */ CREATE TABLE t(c1 INT PRIMARY KEY, c2 INT);
/* init */ INSERT INTO t(c1, c2) VALUES (4, NULL);
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET c1=3 WHERE c1<5;
/* t2 */ BEGIN;
/* t2 */ UPDATE t SET c2=-1 WHERE c1<5;
/* t1 */ DELETE FROM t;
/* t1 */ COMMIT;
/* t2 */ COMMIT;
