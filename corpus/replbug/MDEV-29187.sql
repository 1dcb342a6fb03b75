-- id: MDEV-29187
-- title: The TID of the transaction being rolled back is off by one in logs when deadlocks occur.
-- link: https://jira.mariadb.org/browse/MDEV-29187
-- dbms: MariaDB 10.7.3
-- isolation: read-uncommitted, read-committed, repeatable-read, serializable
-- source: ReplBug thesis (paper 003), replbug/MDEV-29187.txt scenario_0
-- description: The TID of the transaction rolled back is off by one.
-- bug-type: Incorrect query result; levels where it manifested (correlation sheet): read-uncommitted, read-committed, repeatable-read, serializable
-- A two-transaction deadlock; the bug is the transaction id printed in SHOW ENGINE INNODB STATUS (off by one),
-- which txhunt does not inspect. Which transaction is the victim may vary, so no expectation.
/* init */ create table t1 (id int primary key, f1 int);
/* init */ insert into t1 values (1,1), (2,2);
/* t1 */ begin;
/* t1 */ update t1 set f1 = 3 where id = 1;
/* t2 */ begin;
/* t2 */ update t1 set f1 = 4 where id = 2;
/* t1 */ update t1 set f1 = 3 where id = 2;
/* t2 */ update t1 set f1 = 5 where id = 1;
/* t3 */ show engine innodb status;
