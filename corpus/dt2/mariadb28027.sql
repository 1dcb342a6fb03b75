-- id: dt2-mariadb28027
-- title: WHERE RAND('test') treats non-zero doubles below 0.5 as false
-- link: https://jira.mariadb.org/browse/MDEV-28027
-- dbms: MariaDB
-- isolation: read-uncommitted, read-committed, repeatable-read, serializable
-- source: DT2 (paper 000), dt2/mariadb28027.txt; bug list: dt2-bug-list.txt
-- upstream-status: Major, Verified (not transaction-related)
-- buggy: MariaDB skipped the rows for which RAND('test') was a non-zero value below 0.5.
-- Only the SELECT is expected: in strict mode the UPDATE may legitimately fail on the conversion of 'test' to an integer (MariaDB 10.11 does).
/* init */ CREATE TABLE t(c1 INT);
/* init */ INSERT INTO t(c1) VALUES (3), (2), (1);
-- schedule 1-1-2-2-1-2
/* t1 */ BEGIN;
/* t1 */ SELECT * FROM t WHERE RAND('test');  -- expect: rows [3, 2, 1]
/* t2 */ BEGIN;
/* t2 */ UPDATE t SET c1 = + 1 WHERE RAND('test');
/* t1 */ COMMIT;
/* t2 */ COMMIT;
