-- id: TIDB-39976-1
-- title: Delete from throws error in transaction, but only warning outside of a transaction
-- link: https://github.com/pingcap/tidb/issues/39976
-- dbms: TiDB v6.4.0
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-39976.txt scenario_1
-- description: Reports error instead of warning when running in a transaction.
-- bug-type: Unexpected error; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- buggy: Inside the transaction the DELETE reported an error instead of a warning.
/* init */ CREATE TABLE t(c0 TEXT(284));
/* t1 */ REPLACE INTO t VALUES ('G6y*k]88]');
/* t1 */ DELETE FROM t WHERE CAST(TIDB_VERSION() AS DATE);  -- expect: ok
