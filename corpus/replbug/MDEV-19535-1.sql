-- id: MDEV-19535-1
-- title: Setting sql_mode='ORACLE' makes MariaDB miss some required locks.
-- link: https://jira.mariadb.org/browse/MDEV-19535
-- dbms: MariaDB 10.4.5
-- isolation: repeatable-read, serializable
-- source: ReplBug thesis (paper 003), replbug/MDEV-19535.txt scenario_1
-- description: Setting sql_mode='ORACLE' makes MariaDB miss some required locks.
-- bug-type: Missing blocking; levels where it manifested (correlation sheet): repeatable-read, serializable
-- buggy: With sql_mode='ORACLE' the second SELECT ... INTO @a FOR UPDATE did not wait for the first transaction's row lock.
-- scenario_0 uses sql_mode='' (control), scenario_1 sql_mode='ORACLE' (buggy); both must block.
/* t1 */ SET sql_mode='ORACLE';
/* t1 */ CREATE TABLE t1 (a INT NOT NULL PRIMARY KEY) engine=innodb;
/* t1 */ INSERT INTO t1 VALUES (1);
/* t1 */ START TRANSACTION;
/* t1 */ SELECT a AS a_con1 FROM t1 INTO @a FOR UPDATE;
/* t2 */ SET sql_mode='ORACLE';
/* t2 */ START TRANSACTION;
/* t2 */ SELECT a AS a_con2 FROM t1 INTO @a FOR UPDATE;  -- expect: blocked then ok
/* t1 */ UPDATE t1 SET a=a+100;
/* t1 */ COMMIT;
/* t2 */ SELECT a AS con2 FROM t1;
/* t2 */ COMMIT;
