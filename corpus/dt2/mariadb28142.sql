-- id: dt2-mariadb28142
-- title: WHERE CAST(IF('a', '1', 1) AS SIGNED) errors inconsistently
-- link: https://jira.mariadb.org/browse/MDEV-28142
-- dbms: MariaDB
-- source: DT2 (paper 000), dt2/mariadb28142.txt; bug list: dt2-bug-list.txt
-- upstream-status: Unconfirmed
-- No expectation: DT2 lists a missing expected error, ReplBug says the statement should not fail.
/* init */ CREATE TABLE t (c1 TEXT);
/* init */ INSERT INTO t(c1) VALUES ('a');
-- schedule 1-1-1-1-2-2-2
/* t1 */ BEGIN;
/* t1 */ SELECT * FROM t WHERE CAST(IF('a', '1', 1) AS SIGNED);
/* t1 */ UPDATE t SET c1 = 'b' WHERE CAST(IF('a', '1', 1) AS SIGNED);
/* t1 */ COMMIT;
/* t2 */ BEGIN;
/* t2 */ DELETE FROM t WHERE CAST(IF('a', '1', 1) AS SIGNED);
/* t2 */ COMMIT;
