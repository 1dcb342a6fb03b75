-- id: troc-tidb28095
-- title: UPDATE ... WHERE CAST(c1 AS DECIMAL) + 1 behaves differently after another UPDATE
-- link: https://github.com/pingcap/tidb/issues/28095
-- dbms: TiDB
-- isolation: repeatable-read
-- source: Troc, troc/tidb28095.txt
-- source-levels: repeatable-read
-- source-verdict: Error: Inconsistent final database state
-- No expectation: whether the CAST of 'abc' must fail in an UPDATE is disputed between the sources.
/* init */ CREATE TABLE t(c1 VARCHAR(20), c2 INT);
/* init */ INSERT INTO t VALUES ('abc', 1);
-- schedule 1-1-1-2-2-2-2
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET c2 = 10 WHERE CAST(c1 AS DECIMAL) + 1;
/* t1 */ ROLLBACK;
/* t2 */ BEGIN;
/* t2 */ UPDATE t SET c2 = 9;
/* t2 */ UPDATE t SET c2 = 10 WHERE CAST(c1 AS DECIMAL) + 1;
/* t2 */ COMMIT;
