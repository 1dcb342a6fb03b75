-- id: dt2-compat-46
-- title: Inconsistent blocked statements between MariaDB & TiDB (inconsistent lock mechanism; inconsistent database state)
-- link: https://github.com/tcse-iscas/DT2
-- dbms: MariaDB & TiDB
-- isolation: repeatable-read
-- root-cause: Inconsistent lock mechanism
-- consequence: Inconsistent database state
-- DT² compatibility issue 46 (paper 000 §6): an expected behaviour difference, not a bug.
/* init */ CREATE TABLE t (c1 INT, c2 INT);
/* init */ INSERT INTO t(c1, c2) VALUES (1, 1), (2, 2);
/* t1 */ BEGIN;
/* t1 */ INSERT INTO t(c1, c2) VALUES (3, 3);
/* t2 */ BEGIN;
/* t2 */ UPDATE t SET c2 = 10 WHERE c2;
/* t1 */ COMMIT;
/* t2 */ COMMIT;
