-- id: TIDB-21284
-- title: transaction retry may cause panic
-- link: https://github.com/pingcap/tidb/issues/21284
-- dbms: TiDB v4.0.8
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-21284.txt scenario_0
-- description: transaction retry may cause panic
-- bug-type: Unexpected error; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- buggy: COMMIT with transaction retry enabled panicked.
/* init */ create table t (a int);
/* init */ insert into t values (1);
/* t1 */ set @@tidb_disable_txn_auto_retry=0;
/* t1 */ set autocommit=0;
/* t1 */ select * from t;
/* t1 */ SET SQL_SELECT_LIMIT=DEFAULT;
/* t2 */ update t set a=2;
/* t1 */ update t set a=3;
/* t1 */ commit;
-- expect final: t = [(3)]
