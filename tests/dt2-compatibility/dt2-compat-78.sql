-- id: dt2-compat-78
-- title: Inconsistent deadlock between MariaDB & TiDB (inconsistent lock mechanism; inconsistent database state)
-- link: https://github.com/tcse-iscas/DT2
-- dbms: MariaDB & TiDB
-- isolation: repeatable-read
-- root-cause: Inconsistent lock mechanism
-- consequence: Inconsistent database state
-- DT² compatibility issue 78 (paper 000 §6): an expected behaviour difference, not a bug.
/* init */ CREATE TABLE t(c1 INT PRIMARY KEY, c2 INT);
/* init */ INSERT INTO t(c1, c2) VALUES (3, NULL), (4, NULL);
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET c1=2 WHERE c1<=3;
/* t2 */ BEGIN;
/* t2 */ UPDATE t SET c1=1, c2=1 WHERE c1<4;
/* t1 */ UPDATE t SET c2=4 WHERE c1<4;
/* t1 */ COMMIT;
/* t2 */ COMMIT;
