-- id: dt2-compat-58
-- title: Inconsistent query results between MariaDB & TiDB (inconsistent snapshot creation; inconsistent query result)
-- link: https://github.com/tcse-iscas/DT2
-- dbms: MariaDB & TiDB
-- isolation: repeatable-read
-- root-cause: Inconsistent snapshot creation
-- consequence: Inconsistent query result
-- MariaDB (as MySQL) takes the snapshot at the first read, after t2 committed; TiDB at BEGIN.
-- DT² compatibility issue 58 (paper 000 §6): an expected behaviour difference, not a bug.
/* init */ CREATE TABLE t (c1 INT, c2 INT);
/* init */ INSERT INTO t(c1, c2) VALUES (1, 1), (2, 2);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t2 */ DELETE FROM t WHERE c1=1;
/* t2 */ COMMIT;
/* t1 */ SELECT * FROM t;  -- expect: rows [(2, 2)]
/* t1 */ COMMIT;
