-- id: TIDB-30410
-- title: Lazy constraint check causes data inconsistency
-- link: https://github.com/pingcap/tidb/issues/30410
-- dbms: TiDB v5.2.1
-- isolation: read-committed, repeatable-read
-- mode: optimistic
-- source: ReplBug thesis (paper 003), replbug/TIDB-30410.txt scenario_0
-- description: Lazy constraint check causes data inconsistency.
-- bug-type: Unexpected error; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- buggy: With lazy constraint checks the optimistic transaction committed an inconsistent index; ADMIN CHECK TABLE failed.
/* init */ create table t (c0 int, c1 varchar(20), c2 varchar(20), unique key(c0), key(c2));
/* init */ insert into t (c0, c1, c2) values (1, null, 'green');
/* t1 */ set tidb_constraint_check_in_place=0;
/* t1 */ begin optimistic;
/* t1 */ insert into t (c0, c1, c2) values (1, 'red', 'white');
/* t1 */ delete from t where c1 is null;
/* t1 */ update t set c2 = 'green' where c2 between 'purple' and 'white';
/* t1 */ commit;
/* t1 */ admin check table t;  -- expect: ok
