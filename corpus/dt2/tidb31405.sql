-- id: dt2-tidb31405
-- title: UPDATE/DELETE ... WHERE decimal > 'a' misses the truncation error MySQL raises
-- link: https://github.com/pingcap/tidb/issues/31405
-- dbms: TiDB
-- isolation: read-committed, repeatable-read
-- source: DT2 (paper 000), dt2/tidb31405.txt; bug list: dt2-bug-list.txt
-- upstream-status: Moderate, Verified (not transaction-related)
-- buggy: TiDB executed the statements without the error MySQL and MariaDB report (DT2: missing expected error).
-- Only the UPDATE is expected to fail (strict mode, as on MySQL/MariaDB); MariaDB 10.11 runs the DELETE with the same WHERE without error.
/* init */ CREATE TABLE t(c1 DECIMAL);
/* init */ INSERT INTO t(c1) VALUES(1.0);
-- schedule 1-1-2-2-1-2
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET c1 = c1 + 1 WHERE c1 > 'a';  -- expect: error
/* t2 */ BEGIN;
/* t2 */ DELETE FROM t WHERE c1 > 'a';
/* t1 */ ROLLBACK;
/* t2 */ COMMIT;
