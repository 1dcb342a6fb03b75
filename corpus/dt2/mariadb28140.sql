-- id: dt2-mariadb28140
-- title: UPDATE, DELETE and SELECT with WHERE <blob column> behave differently (error vs none)
-- link: https://jira.mariadb.org/browse/MDEV-28140
-- dbms: MariaDB
-- source: DT2 (paper 000), dt2/mariadb28140.txt; bug list: dt2-bug-list.txt
-- upstream-status: Major, Verified (not transaction-related)
-- No expectation: the sources disagree which side is correct (paper 000 Listing 3: MariaDB errs on the UPDATE where MySQL does not;
-- the ReplBug description: SELECT and DELETE should fail like the UPDATE).
/* init */ CREATE TABLE t(c1 BLOB NOT NULL, c2 TEXT);
/* init */ INSERT IGNORE INTO t(c1, c2) VALUES (NULL, NULL), (NULL, 'abc');
-- schedule 1-1-1-1-2-2-2
/* t1 */ BEGIN;
/* t1 */ SELECT * FROM t WHERE c1;
/* t1 */ UPDATE t SET c2 = 'test' WHERE c1;
/* t1 */ ROLLBACK;
/* t2 */ BEGIN;
/* t2 */ DELETE FROM t WHERE c1;
/* t2 */ COMMIT;
