-- id: TIDB-34289
-- title: The name of tables and handles are not parsed in DEBUG table.
-- link: https://github.com/pingcap/tidb/issues/34289
-- dbms: TiDB v5.4.0
-- source: ReplBug thesis (paper 003), replbug/TIDB-34289.txt scenario_0
-- description: The name of tables and handles are not parsed in DEBUG table.
-- buggy: The prepared SELECT ... FOR UPDATE after a concurrent ADD COLUMN behaved differently from the plain statement.
/* init */ create table t(id int primary key, v int);
/* init */ insert into t values(1, 1);
/* t1 */ prepare s from 'select * from t where id=1 for update';
/* t1 */ begin;
/* t2 */ alter table t add column v2 int;
/* t1 */ select * from t where id=1 for update;  -- expect: rows [(1, 1, NULL)]
/* t1 */ execute s;  -- expect: rows [(1, 1, NULL)]
