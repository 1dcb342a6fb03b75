-- id: dt2-compat-22
-- title: Inconsistent blocked statements between MariaDB & TiDB (inconsistent lock mechanism; inconsistent query result)
-- link: https://github.com/tcse-iscas/DT2
-- dbms: MariaDB & TiDB
-- isolation: read-committed
-- root-cause: Inconsistent lock mechanism
-- consequence: Inconsistent query result
-- DT² compatibility issue 22 (paper 000 §6): an expected behaviour difference, not a bug.
/* init */ CREATE TABLE t(c1 INT, c2 INT);
/* init */ INSERT INTO t(c1, c2) VALUES (2, NULL);
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET c2=2 WHERE c1;
/* t2 */ BEGIN;
/* t2 */ SELECT * FROM t WHERE c2 FOR UPDATE;
/* t1 */ COMMIT;
/* t2 */ COMMIT;
