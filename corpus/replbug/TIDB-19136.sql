-- id: TIDB-19136
-- title: Select dives a different value when inside a transaction and when outside.
-- link: https://github.com/pingcap/tidb/issues/19136
-- dbms: TiDB v4.0.4
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-19136.txt scenario_0
-- description: The second select should output the same table as the first one, but it doesn't.
-- bug-type: Incorrect query result; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- buggy: The correlated subquery gave different results inside the transaction (uncommitted rows) and after COMMIT.
/* init */ create table t ( c_int int, c_str varchar(40), primary key(c_int, c_str) );
/* t1 */ begin;
/* t1 */ insert into t values (1, 'amazing almeida'), (2, 'boring bardeen'), (3, 'busy wescoff');
/* t1 */ select c_int, (select t1.c_int from t t1 where t1.c_int = 3 and t1.c_int > t.c_int order by t1.c_int limit 1) x from t;  -- expect: rows [(1, 3), (2, 3), (3, NULL)]
/* t1 */ commit;
/* t1 */ select c_int, (select t1.c_int from t t1 where t1.c_int = 3 and t1.c_int > t.c_int order by t1.c_int limit 1) x from t;  -- expect: rows [(1, 3), (2, 3), (3, NULL)]
