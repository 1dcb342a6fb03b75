-- id: TIDB-34177
-- title: Error on the first scenario
-- link: https://github.com/pingcap/tidb/issues/34177
-- dbms: TiDB v6.0.0
-- source: ReplBug thesis (paper 003), replbug/TIDB-34177.txt scenario_0
-- description: Error on the first scenario
-- buggy: The DELETE ... WHERE CAST('123abc' AS DOUBLE) IS NULL reported an error inside the transaction.
/* init */ CREATE TABLE t (c1 VARCHAR(14));
/* init */ INSERT IGNORE INTO t(c1) VALUES ('test');
/* t1 */ BEGIN;
/* t1 */ DELETE FROM t WHERE (CAST(('123abc') AS DOUBLE)) IS NULL;  -- expect: ok
/* t1 */ COMMIT;
