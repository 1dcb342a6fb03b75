-- id: MDEV-26642
-- title: Concurent updates are inconsistent (some rows are not updated).
-- link: https://jira.mariadb.org/browse/MDEV-26642
-- dbms: MariaDB 10.6.17
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/MDEV-26642.txt scenario_0
-- description: The last select does not respect the update (a should always be 10).
-- bug-type: Incorrect database state; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- buggy: The final SELECT of t1 still showed (0, 0) and (2, 2): the UPDATE ... WHERE true skipped the rows it should have updated.
/* init */ create table t(a int, b int);
/* init */ insert into t values (0, 0), (1, 1), (2, 2);
/* t1 */ begin;
/* t1 */ select * from t;
/* t2 */ begin;
/* t2 */ update t set a = 10 where b = 1;  -- expect: affected 1
/* t2 */ commit;
/* t1 */ select * from t;
/* t1 */ update t set a = 10 where true;
/* t1 */ select * from t;  -- expect: rows [(10, 0), (10, 1), (10, 2)]
/* t1 */ commit;
-- expect final: t = [(10, 0), (10, 1), (10, 2)]
