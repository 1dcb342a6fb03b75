-- id: MYSQL-114389
-- title: A SELECT sees data that shouldn't be visible.
-- link: https://bugs.mysql.com/bug.php?id=114389
-- dbms: MySQL 8.0.12
-- isolation: repeatable-read
-- source: ReplBug thesis (paper 003), replbug/MYSQL-114389.txt scenario_0
-- description: Last SELECT should see no data (because of the update right before it).
-- bug-type: Incorrect query result; levels where it manifested (correlation sheet): repeatable-read
-- buggy: The last SELECT returned the old snapshot version (8, 222, 333) of the row whose primary key another transaction had changed, next to its own updated row.
/* init */ CREATE TABLE t(pkId integer, a INT PRIMARY KEY, b INT, c INT);
/* init */ ALTER TABLE t ADD INDEX t_index(a);
/* init */ INSERT INTO t (pkId,a,b,c) values (8,44,1,2);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t2 */ UPDATE t SET b = 222, c = 333;
/* t2 */ COMMIT;
/* t3 */ BEGIN;
/* t3 */ SELECT pkId, b, c FROM t;
/* t1 */ UPDATE t SET a = 40 WHERE a = 44;
/* t1 */ COMMIT;
/* t3 */ UPDATE t SET b = 888, c = 999;
/* t3 */ SELECT pkId, b, c FROM t where b = 854 or c = 333 order by b;  -- expect: rows []
/* t3 */ COMMIT;
