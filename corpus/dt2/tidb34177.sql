-- id: dt2-tidb34177
-- title: DELETE ... WHERE CAST('123abc' AS DOUBLE) IS NULL reports an error
-- link: https://github.com/pingcap/tidb/issues/34177
-- dbms: TiDB
-- isolation: read-committed, repeatable-read
-- source: DT2 (paper 000), dt2/tidb34177.txt; bug list: dt2-bug-list.txt
-- upstream-status: Moderate, Verified (not transaction-related)
-- buggy: TiDB reported an error for the DELETE (DT2: reporting unexpected error).
/* init */ CREATE TABLE t (c1 VARCHAR(14));
/* init */ INSERT IGNORE INTO t(c1) VALUES ('test');
-- schedule 1-1-1-2-2-2
/* t1 */ BEGIN;
/* t1 */ DELETE FROM t WHERE (CAST(('123abc') AS DOUBLE)) IS NULL;  -- expect: ok
/* t1 */ ROLLBACK;
/* t2 */ BEGIN;
/* t2 */ UPDATE t SET c1='xyz' WHERE (CAST(('123abc') AS DOUBLE)) IS NULL;  -- expect: ok
/* t2 */ ROLLBACK;
-- expect final: t = [('test')]
