-- id: TIDB-24195
-- title: Query in optimistic transaction returns rows with same PK
-- link: https://github.com/pingcap/tidb/issues/24195
-- dbms: TiDB v6.4.0
-- isolation: read-committed, repeatable-read
-- mode: optimistic
-- source: ReplBug thesis (paper 003), replbug/TIDB-24195.txt scenario_0
-- description: Query in optimistic transaction returns rows with same PK
-- bug-type: Incorrect database state; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- buggy: In the optimistic transaction the SELECT returned two rows with the same primary key (1, 10).
/* init */ create table t (a int, b int, primary key (a, b) /*T![clustered_index] nonclustered */);
/* init */ insert into t values (1, 10);
/* t1 */ begin optimistic;
/* t1 */ insert into t values (1, 10);
/* t1 */ select * from t;  -- expect: rows [(1, 10)]
/* t1 */ commit;
