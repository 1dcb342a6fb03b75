-- id: TIDB-39977
-- title: Select has warnings when running in a transaction.
-- link: https://github.com/pingcap/tidb/issues/39977
-- dbms: TiDB v6.4.0
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-39977.txt scenario_0
-- description: Gets warnings when running in a transaction.
-- bug-type: Unexpected warning; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- The bug is an extra warning; txhunt does not check warnings, no expectation.
/* init */ CREATE TABLE t(c0 DECIMAL, c1 BLOB(79));
/* init */ INSERT INTO t(c0, c1) VALUES (NULL, ' '), (-2, 'oCK');
/* t1 */ BEGIN;
/* t1 */ DELETE FROM t;
-- Comment from the source PoC on the next statement: Warning
/* t1 */ SELECT /*+ STREAM_AGG()*/c0 FROM t WHERE c1 FOR UPDATE;
/* t1 */ COMMIT;
