-- id: TIDB-19194
-- title: Replace into fails in transaction but works outside.
-- link: https://github.com/pingcap/tidb/issues/19194
-- dbms: TiDB v4.0.4
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-19194.txt scenario_0
-- description: The second replace should behave like the first one, but it doesn't.
-- bug-type: Unexpected error; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- buggy: The REPLACE inside the transaction behaved differently from the same REPLACE after COMMIT.
/* init */ create table t (c_int int, c_str varchar(40), primary key (c_int));
/* init */ insert into t values (1, 'Alice');
/* t1 */ begin;
/* t1 */ insert into t values (1, 'Bob'), (1, 'Carol');  -- expect: error constraint
/* t1 */ replace into t values (1, 'Dave');
/* t1 */ commit;
/* t1 */ replace into t values (1, 'Dave');
-- expect final: t = [(1, 'Dave')]
