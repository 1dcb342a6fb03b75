-- id: TIDB-39972
-- title: UPDATE statement with CAST() reports an error in the transaction
-- link: https://github.com/pingcap/tidb/issues/39972
-- dbms: TiDB v6.4.0
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-39972.txt scenario_0
-- description: UPDATE statement with CAST() reports an error in the transaction.
-- bug-type: Unexpected error; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- Should behave the same in and out of the transaction; whether the constant CAST error is right in strict mode is unclear, no expectation.
/* init */ CREATE TABLE t(c0 INT);
/* init */ INSERT IGNORE INTO t VALUES (2);
/* t1 */ BEGIN;
/* t1 */ DELETE FROM t WHERE TRUE;
-- Comment from the source PoC on the next statement: report an error
/* t1 */ UPDATE t SET c0=0 WHERE (CAST('a' AS SIGNED));
/* t1 */ COMMIT;
