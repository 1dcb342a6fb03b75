-- id: MDEV-26643
-- title: The behaviors of UPDATE for different rows are inconsistent. Just some of the rows are not updated while others are.
-- link: https://jira.mariadb.org/browse/MDEV-26643
-- dbms: MariaDB 10.5.12
-- isolation: read-uncommitted, read-committed
-- source: ReplBug thesis (paper 003), replbug/MDEV-26643.txt scenario_0
-- description: The first row should be 20, but is 1 (not updated)
-- bug-type: Incorrect database state; levels where it manifested (correlation sheet): read-uncommitted, read-committed
-- buggy: The first row kept b = 1: the blocked UPDATE ... WHERE a skipped the row whose committed a was NULL (semi-consistent read) and updated the others.
/* init */ create table t(a int, b int);
/* init */ insert into t values(null, 1), (2, 2), (null, null), (null, 3), (4, null);
/* t1 */ begin;
/* t1 */ update t set a = 10 where 1;
/* t2 */ begin;
/* t2 */ update t set b = 20 where a;
/* t1 */ commit;
/* t2 */ commit;
/* t3 */ select * from t;
-- expect final: t = [(10, 20), (10, 20), (10, 20), (10, 20), (10, 20)]
