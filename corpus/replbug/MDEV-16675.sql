-- id: MDEV-16675
-- title: In this test, there is no conflict, and the DELETE statement should not convert the implicit lock into an explicit one. But, the function lock_rec_convert_impl_to_expl_for_trx() is being invoked during the test.
-- link: https://jira.mariadb.org/browse/MDEV-16675
-- dbms: MariaDB 10.3.8-debug
-- isolation: read-uncommitted, read-committed, repeatable-read, serializable
-- source: ReplBug thesis (paper 003), replbug/MDEV-16675.txt scenario_0
-- description: In this test, there is no conflict, and the DELETE statement should not convert the implicit lock into an explicit one. But, the function lock_rec_convert_impl_to_expl_for_trx() is being invoked during the test.
-- bug-type: Low performance; levels where it manifested (correlation sheet): read-uncommitted, read-committed, repeatable-read, serializable
-- The bug (an implicit-to-explicit lock conversion) is visible only inside a debug build; no observable expectation.
/* init */ CREATE TABLE t1(id INT PRIMARY KEY, a INT, b CHAR(1), UNIQUE KEY u(a,b)) ENGINE=InnoDB;
/* t1 */ BEGIN;
/* t1 */ INSERT INTO t1 VALUES(1,1,'a'),(2,9999,'b'),(3,10000,'c'),(4,4,'d');
/* t1 */ COMMIT;
