-- id: TIDB-31405
-- title: Error on the first scenario
-- link: https://github.com/pingcap/tidb/issues/31405
-- dbms: TiDB v5.3.0
-- source: ReplBug thesis (paper 003), replbug/TIDB-31405.txt scenario_0
-- description: Error on the first scenario
-- buggy: TiDB did not raise the truncation error MySQL raises in strict mode for c0 > 'a' in an UPDATE (DT2: missing expected error).
/* init */ CREATE TABLE t0(c0 DECIMAL);
/* t1 */ BEGIN;
/* t1 */ INSERT INTO t0 VALUES(1.0);
/* t1 */ UPDATE t0 SET c0 = c0 + 1 WHERE c0 > 'a';  -- expect: error
/* t1 */ COMMIT;
