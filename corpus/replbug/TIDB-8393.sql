-- id: TIDB-8393
-- title: Variables set in transactions are not reset on rollback
-- link: https://github.com/pingcap/tidb/issues/8393
-- dbms: TiDB v6.4.0
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-8393.txt scenario_0
-- description: Variable set in transaction is not rolled back.
-- bug-type: Incorrect database state; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- User variables are not transactional in MySQL (SELECT @a returns 100 after ROLLBACK); the report expects otherwise, so no expectation.
/* init */ create table t(a bigint, b bigint);
/* t1 */ begin;
/* t1 */ set @a = 100;
/* t1 */ insert into t values(1, 1);
/* t1 */ rollback;
/* t1 */ select @a;
