-- id: TIDB-19585
-- title: Running update in a transaction yield different results than running outside of the transaction.
-- link: https://github.com/pingcap/tidb/issues/19585
-- dbms: TiDB b0c3fe7b
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-19585.txt scenario_0
-- description: The second select should output the same table as the first one, but it doesn't.
-- bug-type: Incorrect database state; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- buggy: The UPDATE ... c_int + 10 WHERE c_int IN (1, 11) on the partitioned table updated the moved row twice (or lost it).
/* init */ create table t1  (c_int int, primary key (c_int)) partition by range (c_int) (partition p0 values less than (10), partition p1 values less than maxvalue);
/* init */ insert into t1 (c_int) values (1);
/* t1 */ begin;
/* t1 */ insert into t1 values (10);
/* t1 */ update t1 set c_int = c_int + 10 where c_int in (1, 11);
/* t1 */ commit;
/* t1 */ select * from t1 order by c_int;  -- expect: rows [10, 11]
-- expect final: t1 = [(10), (11)]
