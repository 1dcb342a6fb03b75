-- id: TIDB-21722
-- title: execute DDL statement in transaction reports 'invalid transaction'.
-- link: https://github.com/pingcap/tidb/issues/21722
-- dbms: TiDB 49b926ed
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-21722.txt scenario_0
-- description: execute DDL statement in transaction reports 'invalid transaction'.
-- bug-type: Unexpected error; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- buggy: ALTER TABLE inside the transaction reported 'invalid transaction'.
/* t1 */ create table t (c_int int, c_str varchar(40));
/* t1 */ insert into t values (1, 'quizzical hofstadter');
/* t1 */ begin;
/* t1 */ select c_int from t where c_str is not null for update;
/* t1 */ alter table t add index idx_4 (c_str);  -- expect: ok
