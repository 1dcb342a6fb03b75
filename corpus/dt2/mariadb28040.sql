-- id: dt2-mariadb28040
-- title: Locks of an UPDATE whose WHERE matches nothing are held until commit
-- link: https://jira.mariadb.org/browse/MDEV-28040
-- dbms: MariaDB
-- source: DT2 (paper 000), dt2/mariadb28040.txt; bug list: dt2-bug-list.txt
-- upstream-status: Unconfirmed
-- No expectation: whether t2 must wait is what the report disputes (unexpected blocking).
/* init */ CREATE TABLE t(c1 BLOB NOT NULL, c2 TEXT);
/* init */ INSERT IGNORE INTO t(c1, c2) VALUES (NULL, NULL), (NULL, 'aaa');
-- schedule 1-1-2-2-1-2
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET c2='test' WHERE c1;
/* t2 */ BEGIN;
/* t2 */ UPDATE t SET c2 = 'def';
/* t1 */ COMMIT;
/* t2 */ COMMIT;
