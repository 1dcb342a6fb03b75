-- id: MDEV-24083
-- title: The DLL language is not permited in readonly transactions, even though it should.
-- link: https://jira.mariadb.org/browse/MDEV-24083
-- dbms: MariaDB 10.1.48
-- isolation: read-uncommitted, read-committed, repeatable-read, serializable
-- source: ReplBug thesis (paper 003), replbug/MDEV-24083.txt scenario_0
-- description: DDL should be allowed in read-only transactions.
-- bug-type: Unexpected error; levels where it manifested (correlation sheet): read-uncommitted, read-committed, repeatable-read, serializable
-- buggy: CREATE TEMPORARY TABLE was refused inside START TRANSACTION READ ONLY (error 1792) although temporary tables may be created and changed there; the INSERT, SELECT and DROP that follow then fail too.
/* t1 */ START TRANSACTION READ ONLY;
/* t1 */ CREATE TEMPORARY TABLE t (id int unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY,val int unsigned NOT NULL);  -- expect: ok
/* t1 */ INSERT INTO t (val) VALUES (22),(96),(47),(5),(22);
/* t1 */ SELECT * FROM t;
/* t1 */ DROP TEMPORARY TABLE t;
/* t1 */ COMMIT;
