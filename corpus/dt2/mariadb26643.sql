-- id: dt2-mariadb26643
-- title: Blocked UPDATE ... WHERE c1 skips rows whose committed c1 was NULL (semi-consistent read)
-- link: https://jira.mariadb.org/browse/MDEV-26643
-- dbms: MariaDB
-- isolation: read-uncommitted, read-committed
-- source: DT2 (paper 000), dt2/mariadb26643.txt; bug list: dt2-bug-list.txt
-- upstream-status: Critical, Duplicate
-- buggy: Rows whose last committed c1 was NULL kept their old c2 although t1 had set c1 = 10 before t2 resumed.
-- Disputed: at read-uncommitted/read-committed InnoDB documents this as "semi-consistent read"; the WriteCheck paper (001, Listing 5) calls the same pattern permissible, while the bug trackers accepted it.
/* init */ CREATE TABLE t(c1 INT, c2 INT);
/* init */ INSERT INTO t(c1, c2) VALUES (NULL, 1), (2, 2), (NULL, NULL), (NULL, 3), (4, NULL);
-- schedule 1-1-2-2-1-2
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET c1=10 WHERE 1;
/* t2 */ BEGIN;
/* t2 */ UPDATE t SET c2=10 WHERE c1;
/* t1 */ COMMIT;
/* t2 */ COMMIT;
-- expect final: t = [(10, 10), (10, 10), (10, 10), (10, 10), (10, 10)]
