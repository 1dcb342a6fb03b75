-- id: TIDB-21498
-- title: transaction sees inconsistent data when there are concurrent DDLs
-- link: https://github.com/pingcap/tidb/issues/21498
-- dbms: TiDB 3a32bd2d
-- isolation: read-committed
-- source: ReplBug thesis (paper 003), replbug/TIDB-21498.txt scenario_0
-- description: transaction sees inconsistent data when there are concurrent DDLs
-- bug-type: Incorrect query result; levels where it manifested (correlation sheet): read-committed
-- Concurrent DROP INDEX + UPDATE; on MariaDB the DDL waits for the open transaction, on TiDB it does not; no expectation.
/* init */ create table t (id int primary key, v int, index iv (v));
/* init */ insert into t values (1, 10), (2, 20), (3, 30), (4, 40);
/* t1 */ begin;
/* t1 */ explain select * from t where v = 10;
/* t1 */ select * from t where v = 10;
/* t2 */ alter table t drop index iv;
/* t2 */ update t set v = 11 where id = 1;
/* t1 */ explain select * from t where v = 10;
/* t1 */ select * from t where v = 10;
/* t1 */ select * from t where id = 1;
