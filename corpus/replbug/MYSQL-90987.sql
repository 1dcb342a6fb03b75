-- id: MYSQL-90987
-- title: Using a parition index causes deadlocks
-- link: https://bugs.mysql.com/bug.php?id=90987
-- dbms: MySQL 5.7.17
-- isolation: read-uncommitted, read-committed, repeatable-read, serializable
-- source: ReplBug thesis (paper 003), replbug/MYSQL-90987.txt scenario_0
-- description: Using a parition index causes deadlocks
-- bug-type: Unnecessary locking; levels where it manifested (correlation sheet): read-uncommitted, read-committed, repeatable-read, serializable
-- buggy: On the LIST-partitioned table the second UPDATE (different rows, b=2) waited for / deadlocked with the first (b=3).
-- scenario_0 is the partitioned table (buggy), scenario_1 the same table without partitions (control).
-- The first transaction never commits, so a wrongly blocked UPDATE never completes and the expectation fails.
/* t1 */ create table t4 (a int unsigned auto_increment , b int, c int, key(b), primary key(a,b)) PARTITION BY LIST (b)(partition p0 values in (0,1, 2 ,3, 4), partition p1 values in(5,6,7,8,9,10));
/* t1 */ insert into t4(b,c) values(1,11),(2,22),(3,33),(4,44),(5,55),(6,66),(7,77),(8,88),(9,99);
/* t1 */ begin;
/* t1 */ update t4 set c=c+1 where b=3;
/* t2 */ begin;
/* t2 */ update t4 set c=c+1 where b=2;  -- expect: affected 1
