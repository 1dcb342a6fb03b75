-- id: MYSQL-93806
-- title: Exclusive range locks are created when using ON DUPLICATE KEY UPDATE (and the update takes place)
-- link: https://bugs.mysql.com/bug.php?id=93806
-- dbms: MySQL 8.0.12
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/MYSQL-93806.txt scenario_0
-- description: Exclusive range locks are created when using ON DUPLICATE KEY UPDATE (and the update takes place)
-- bug-type: Unnecessary blocking; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- INSERT ... ON DUPLICATE KEY UPDATE takes a next-key lock on the duplicate (documented); whether the gap lock is a bug is disputed, so no expectation.
/* init */ create table t(id int primary key, a int)engine=innodb;
/* init */ insert into t values(1,1),(5,5);
/* t1 */ begin;
/* t1 */ insert into t values(5,5) ON DUPLICATE KEY UPDATE a=a+1;
/* t2 */ begin;
/* t2 */ insert into t values(4, 4);
/* t1 */ commit;
/* t2 */ commit;
