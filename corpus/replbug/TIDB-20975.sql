-- id: TIDB-20975
-- title: Unexpected "Information schema is changed" when commits
-- link: https://github.com/pingcap/tidb/issues/20975
-- dbms: TiDB fa6baa9f
-- isolation: read-committed, repeatable-read
-- mode: pessimistic
-- source: ReplBug thesis (paper 003), replbug/TIDB-20975.txt scenario_0
-- description: Unexpected "Information schema is changed" when commits
-- bug-type: Unexpected error; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- buggy: COMMIT failed with 'Information schema is changed' after an unrelated CREATE TABLE.
/* init */ create table t1(a int);
/* init */ insert into t1 values (1);
/* t1 */ begin pessimistic;
/* t1 */ update t1 set a=a;
/* t2 */ create table t2(a int);
/* t1 */ commit;  -- expect: ok
-- expect final: t1 = [(1)]
