-- id: TIDB-22345
-- title: "Select For Update" in decorrelated subquery return WriteConflictError in pessimistic mode.
-- link: https://github.com/pingcap/tidb/issues/22345
-- dbms: TiDB v4.0.0-beta.2
-- isolation: read-committed, repeatable-read
-- mode: pessimistic
-- source: ReplBug thesis (paper 003), replbug/TIDB-22345.txt scenario_0
-- description: "Select For Update" in decorrelated subquery return WriteConflictError in pessimistic mode.
-- bug-type: Unexpected error; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- buggy: The SELECT ... FOR UPDATE in the decorrelated subquery returned a write-conflict error.
/* init */ create table t(id int primary key, v int);
/* init */ insert into t values(1, 10), (2, 20);
/* t1 */ begin pessimistic;
/* t1 */ select * from t;
/* t2 */ update t set v = v * 10;
/* t1 */ select (select v from t where id = 2 for update) from dual;  -- expect: rows [200]
