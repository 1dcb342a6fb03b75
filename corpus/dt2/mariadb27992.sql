-- id: dt2-mariadb27992
-- title: DELETE fails to delete the row after its lock wait ends
-- link: https://jira.mariadb.org/browse/MDEV-27992
-- dbms: MariaDB
-- isolation: read-uncommitted, read-committed
-- source: DT2 (paper 000), dt2/mariadb27992.txt; bug list: dt2-bug-list.txt
-- upstream-status: Critical, Fixed
-- buggy: After t1 committed, t2's DELETE deleted nothing and SELECT ... FOR UPDATE returned the row 3.
-- levels-note: DT2 saw it at all four levels; at repeatable-read/serializable MariaDB 10.11 may instead abort t2 with a deadlock (legitimate), so only RU/RC are run.
/* init */ CREATE TABLE t(c1 INT PRIMARY KEY);
/* init */ INSERT INTO t(c1) VALUES (8);
-- schedule 1-1-2-2-1-1-2-2
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET c1=5;
/* t2 */ BEGIN;
/* t2 */ DELETE FROM t;
/* t1 */ UPDATE t SET c1=3;
/* t1 */ COMMIT;
/* t2 */ SELECT * FROM t FOR UPDATE;  -- expect: rows []
/* t2 */ COMMIT;
-- expect final: t = []
