-- id: TIDB-34978
-- title: A SELECT throws an error after a DML operation in another transaction.
-- link: https://github.com/pingcap/tidb/issues/34978
-- dbms: TiDB v6.4.0
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-34978.txt scenario_0
-- description: A SELECT throws an error after a DML operation in another transaction.
-- bug-type: Unexpected error; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- buggy: SELECT ... FOR UPDATE failed after the concurrent DROP COLUMN and INSERT.
/* init */ create table t (id int primary key, c int not null);
/* init */ insert into t values (1, 1), (2, 2);
/* t1 */ begin;
/* t2 */ alter table t drop column c;
/* t2 */ insert into t values (3);
/* t1 */ select * from t for update;  -- expect: rows [1, 2, 3]
