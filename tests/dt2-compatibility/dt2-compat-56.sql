-- id: dt2-compat-56
-- title: Inconsistent blocked statements between MariaDB & TiDB (inconsistent lock mechanism; no difference)
-- link: https://github.com/tcse-iscas/DT2
-- dbms: MariaDB & TiDB
-- isolation: repeatable-read
-- root-cause: Inconsistent lock mechanism
-- consequence: No difference
-- DT² compatibility issue 56 (paper 000 §6): an expected behaviour difference, not a bug.
/* init */ CREATE TABLE t (c1 INT, c2 INT);
/* init */ INSERT INTO t(c1, c2) VALUES (-3, -8);
/* t1 */ BEGIN;
/* t1 */ SELECT * FROM t WHERE c2 > NULL FOR UPDATE;
/* t2 */ BEGIN;
/* t2 */ INSERT INTO t(c1, c2) VALUES (0, NULL);
/* t1 */ COMMIT;
/* t2 */ COMMIT;
