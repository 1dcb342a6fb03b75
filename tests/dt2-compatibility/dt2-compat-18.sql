-- id: dt2-compat-18
-- title: Inconsistent blocked statements between MariaDB & TiDB (inconsistent lock mechanism; no difference)
-- link: https://github.com/tcse-iscas/DT2
-- dbms: MariaDB & TiDB
-- isolation: read-committed
-- root-cause: Inconsistent lock mechanism
-- consequence: No difference
-- DT² compatibility issue 18 (paper 000 §6): an expected behaviour difference, not a bug.
/* init */ CREATE TABLE t(c1 INT, c2 INT);
/* init */ INSERT INTO t(c1, c2) VALUES (3, NULL), (5, NULL);
/* t1 */ BEGIN;
/* t1 */ DELETE FROM t WHERE c1;
/* t2 */ BEGIN;
/* t2 */ SELECT * FROM t WHERE c2 FOR UPDATE;
/* t1 */ COMMIT;
/* t2 */ COMMIT;
