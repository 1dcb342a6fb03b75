-- id: TIDB-28092-1
-- title: the "insert ignore" command creates invalid entries
-- link: https://github.com/pingcap/tidb/issues/28092
-- dbms: TiDB v5.2.1
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-28092.txt scenario_1
-- description: Should not throw an error. This is actually not transaction-related (see comments on the issue).
-- bug-type: Unexpected error; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- buggy: TiDB reported an error for UPDATE ... WHERE a (a BLOB holding '') inside the transaction after another UPDATE (scenario_1); DT2 classifies it as an unexpected error (MySQL does not report one).
/* init */ create table t(a blob not null, b text);
/* init */ insert ignore into t values (null, null), (null, 'abc');
/* t1 */ begin;
/* t1 */ update t set b = 'def';
/* t1 */ update t set b = 'test' where a;  -- expect: ok
/* t1 */ rollback;
