-- id: MDEV-24545
-- title: Transactions are unable to find a sequence, even though it should be available.
-- link: https://jira.mariadb.org/browse/MDEV-24545
-- dbms: MariaDB 10.3.28
-- isolation: read-uncommitted, read-committed, repeatable-read, serializable
-- source: ReplBug thesis (paper 003), replbug/MDEV-24545.txt scenario_0
-- description: Second SELECT NEXTVAL is in the global scope, and should find the sequence S1.
-- bug-type: Unexpected error; levels where it manifested (correlation sheet): read-uncommitted, read-committed, repeatable-read, serializable
-- buggy: After COMMIT the SELECT NEXTVAL(s1) still failed to find the sequence created by another connection.
/* init */ CREATE TABLE t1 (a INT) ENGINE=InnoDB;
/* t1 */ START TRANSACTION;
/* t1 */ SELECT * FROM t1;
/* t2 */ CREATE SEQUENCE s1 ENGINE=InnoDB;
/* t2 */ FLUSH TABLES;
/* t1 */ SELECT NEXTVAL(s1);
/* t1 */ COMMIT;
/* t1 */ SELECT NEXTVAL(s1);  -- expect: ok
