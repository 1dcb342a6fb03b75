-- id: TIDB-28095-1
-- title: UPDATE with CAST has inconsistent behaviors in transaction
-- link: https://github.com/pingcap/tidb/issues/28095
-- dbms: TiDB v6.4.0
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-28095.txt scenario_1
-- description: Should not throw an error on the third scenario.
-- bug-type: Unexpected error; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- Same WHERE CAST(... AS DECIMAL) in autocommit, in a transaction, and after an UPDATE in a transaction; they should behave alike. No expectation.
/* init */ create table t(a varchar(20));
/* init */ insert into t values ('abc'), ('def');
/* t1 */ start transaction;
/* t1 */ update t set a = 'test' where cast(a as decimal);
/* t1 */ rollback;
