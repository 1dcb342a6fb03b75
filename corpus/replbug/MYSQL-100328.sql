-- id: MYSQL-100328
-- title: UPDATE does not update all records
-- link: https://bugs.mysql.com/bug.php?id=100328
-- dbms: MySQL 5.7.22
-- isolation: read-uncommitted, read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/MYSQL-100328.txt scenario_0
-- description: UPDATE does not update all records.
-- bug-type: Incorrect database state; levels where it manifested (correlation sheet): read-uncommitted, read-committed, repeatable-read, serializable
-- buggy: The UPDATE ... WHERE a did not update all rows; the final SELECT still showed old values.
-- levels-note: At serializable the first SELECT takes shared locks, t2 waits and the outcome (deadlock) varies, so that level is not run although the sheet lists it.
/* init */ create table t(a int, b int) engine=innodb;
/* init */ insert into t values (1, 0), (2, 1), (3, 2);
/* t1 */ begin;
/* t1 */ select * from t;
/* t2 */ begin;
/* t2 */ update t set a = 10 where b = 1;
/* t2 */ commit;
/* t1 */ select * from t;
/* t1 */ update t set a = 10 where a;
/* t1 */ select * from t;  -- expect: rows [(10, 0), (10, 1), (10, 2)]
