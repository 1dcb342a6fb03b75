-- id: MYSQL-102722
-- title: Locks on secondary indexes are not released even though the secondary indexes are unmatched when index_condition_pushdown=off
-- link: https://bugs.mysql.com/bug.php?id=102722
-- dbms: MySQL 8.0.26
-- isolation: read-uncommitted, read-committed, repeatable-read, serializable
-- source: ReplBug thesis (paper 003), replbug/MYSQL-102722.txt scenario_0
-- description: Locks on secondary indexes are not released even though the secondary indexes are unmatched when index_condition_pushdown=off
-- bug-type: Unnecessary blocking; levels where it manifested (correlation sheet): read-uncommitted, read-committed, repeatable-read, serializable
-- The extra locks are only visible in performance_schema.data_locks (MySQL 8); no expectation.
/* init */ create table ts(a int primary key, b int, c int, d int, index(b,c));
/* init */ insert into ts values(1,1,1,1),(2,2,2,2),(3,3,3,3),(4,4,4,4),(5,5,5,5),(6,6,6,6),(7,7,7,7),(8,8,8,8),(9,9,9,9);
/* t1 */ show variables like '%isolation%';
/* t1 */ SET @@optimizer_switch='index_condition_pushdown=off';
/* t1 */ begin;
/* t1 */ select b,c,d from ts where b>=5 and b<8 and c=7 for update;
/* t1 */ select INDEX_NAME,LOCK_TYPE,LOCK_MODE,LOCK_STATUS,LOCK_DATA from performance_schema.data_locks;
/* t1 */ commit;
/* t1 */ SET @@optimizer_switch='index_condition_pushdown=on';
/* t1 */ begin;
/* t1 */ select b,c,d from ts where b>=5 and b<8 and c=7 for update;
/* t1 */ select INDEX_NAME,LOCK_TYPE,LOCK_MODE,LOCK_STATUS,LOCK_DATA from performance_schema.data_locks;
/* t1 */ commit;
