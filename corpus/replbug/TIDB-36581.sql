-- id: TIDB-36581
-- title: Issuing autocommit=on instructions makes rollback fail
-- link: https://github.com/pingcap/tidb/issues/36581
-- dbms: TiDB v6.1.0
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-36581.txt scenario_0
-- description: Issuing autocommit=on instructions makes rollback fail
-- bug-type: Incorrect database state; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- buggy: SET autocommit=ON inside the transaction (autocommit was already ON) committed it, so ROLLBACK did not undo the update.
/* init */ create table test(a int);
/* init */ insert into test values (590);
/* t1 */ set autocommit = ON;
/* t1 */ begin;
/* t1 */ select * from test;
/* t1 */ update test set a=a+1;
/* t1 */ select * from test;
/* t1 */ set autocommit=ON;
/* t1 */ rollback;
/* t1 */ select * from test;  -- expect: rows [590]
-- expect final: test = [(590)]
