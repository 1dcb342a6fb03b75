-- id: TIDB-20773
-- title: The update should block, but it doesn't.
-- link: https://github.com/pingcap/tidb/issues/20773
-- dbms: TiDB v4.0.8
-- source: ReplBug thesis (paper 003), replbug/TIDB-20773.txt scenario_0
-- description: The update should block, but it doesn't.
-- Concurrent ALTER TABLE during the transaction; no expectation (DDL/MDL behaviour differs between DBMSs).
/* init */ create table t (id int primary key, c_str varchar(20));
/* init */ insert into t values (1, '0001'), (2, '0002'), (3, null), (4, '0003'), (5, null);
/* t1 */ begin;
/* t1 */ insert into t values (6, '0004');
/* t1 */ insert into t values (7, null);
/* t2 */ alter table t add c_str_new varchar(20);
/* t1 */ update t set c_str = '0005' where id = 1;
/* t1 */ update t set c_str = null where id = 2;
/* t1 */ update t set c_str = '0006' where id = 3;
/* t1 */ delete from t where id = 4;
/* t1 */ delete from t where id = 5;
/* t1 */ commit;
