-- id: MDEV-28140
-- title: Update, Delete and Select behave differently when dealing with invalid data
-- link: https://jira.mariadb.org/browse/MDEV-28140
-- dbms: MariaDB 10.8.3
-- isolation: read-uncommitted, read-committed, repeatable-read, serializable
-- source: ReplBug thesis (paper 003), replbug/MDEV-28140.txt scenario_0
-- description: The second and third scenarios (SELECT and DELETE) should fail like the first one (UPDATE) does.
-- bug-type: Incorrect query result; levels where it manifested (correlation sheet): read-uncommitted, read-committed, repeatable-read, serializable
-- buggy: UPDATE ... WHERE c1 failed with a truncation error in strict mode while SELECT and DELETE with the same WHERE succeeded.
-- No expectation: the sources disagree on the correct side. ReplBug says SELECT and DELETE should fail like the UPDATE;
-- the DT2 paper (Listing 3) says MariaDB errs on the UPDATE where MySQL does not. All three statements should at least behave alike.
/* init */ CREATE TABLE t(c1 BLOB NOT NULL, c2 TEXT);
/* init */ INSERT IGNORE INTO t VALUES (NULL, NULL), (NULL, 'abc');
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET c2 = 'test' WHERE c1;
/* t1 */ COMMIT;
