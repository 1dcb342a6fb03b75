-- id: dt2-compat-66
-- title: Inconsistent deadlock between MariaDB & TiDB (inconsistent aborted transaction; inconsistent database state)
-- link: https://github.com/tcse-iscas/DT2
-- dbms: MariaDB & TiDB
-- isolation: repeatable-read
-- root-cause: Inconsistent aborted transaction
-- consequence: Inconsistent database state
-- DT² compatibility issue 66 (paper 000 §6): an expected behaviour difference, not a bug.
/* init */ CREATE TABLE t(c1 INT PRIMARY KEY, c2 INT);
/* init */ INSERT INTO t(c1, c2) VALUES (1, NULL), (2, NULL);
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET c2=1 WHERE c1=1;
/* t2 */ BEGIN;
/* t2 */ UPDATE t SET c2=3 WHERE c1=2;
/* t1 */ UPDATE t SET c2=2 WHERE c1=2;
/* t2 */ UPDATE t SET c2=4 WHERE c1=1;
/* t1 */ COMMIT;
/* t2 */ COMMIT;
