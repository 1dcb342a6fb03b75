-- id: dt2-tidb28095
-- title: UPDATE ... WHERE CAST(c1 AS DECIMAL) behaves differently after another UPDATE in the transaction
-- link: https://github.com/pingcap/tidb/issues/28095
-- dbms: TiDB
-- isolation: read-committed, repeatable-read
-- source: DT2 (paper 000), dt2/tidb28095.txt; bug list: dt2-bug-list.txt
-- upstream-status: Minor, Duplicate
-- No expectation: DT2 lists a missing expected error, the ReplBug description says the statement should not fail.
/* init */ CREATE TABLE t(c1 VARCHAR(20));
/* init */ INSERT IGNORE INTO t(c1) VALUES ('abc'), ('def');
-- schedule 1-1-1-1-2-2-2
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET c1 = 'xyz';
/* t1 */ UPDATE t SET c1 = 'test' WHERE CAST(c1 AS DECIMAL);
/* t1 */ ROLLBACK;
/* t2 */ BEGIN;
/* t2 */ UPDATE t SET c1 = 'test' WHERE CAST(c1 AS DECIMAL);
/* t2 */ COMMIT;
