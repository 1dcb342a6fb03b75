-- id: dt2-compat-54
-- title: Inconsistent blocked statements between MariaDB & TiDB (inconsistent lock mechanism; no difference)
-- link: https://github.com/tcse-iscas/DT2
-- dbms: MariaDB & TiDB
-- isolation: repeatable-read
-- root-cause: Inconsistent lock mechanism
-- consequence: No difference
-- DT² compatibility issue 54 (paper 000 §6): an expected behaviour difference, not a bug.
/* init */ CREATE TABLE t (c1 INT, c2 INT);
/* init */ INSERT INTO t(c1, c2) VALUES (1, 1);
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET c2 = -1 WHERE c2 > NULL;
/* t2 */ BEGIN;
/* t2 */ INSERT INTO t(c1, c2) VALUES (2, 2);
/* t1 */ COMMIT;
/* t2 */ COMMIT;
