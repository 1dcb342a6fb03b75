-- id: dt2-tidb28092
-- title: UPDATE ... WHERE <blob column> reports an error inside a transaction
-- link: https://github.com/pingcap/tidb/issues/28092
-- dbms: TiDB
-- isolation: read-committed, repeatable-read
-- source: DT2 (paper 000), dt2/tidb28092.txt; bug list: dt2-bug-list.txt
-- upstream-status: Moderate, Duplicate (not transaction-related per the issue)
-- buggy: TiDB reported an error for UPDATE t SET c2 = 'test' WHERE c1 (DT2: reporting unexpected error).
/* init */ CREATE TABLE t(c1 BLOB NOT NULL, c2 TEXT);
/* init */ INSERT IGNORE INTO t(c1, c2) VALUES (NULL, NULL), (NULL, 'abc');
-- schedule 1-1-1-1-2-2-2
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET c2 = 'def';
/* t1 */ UPDATE t SET c2 = 'test' WHERE c1;  -- expect: ok
/* t1 */ ROLLBACK;
/* t2 */ BEGIN;
/* t2 */ UPDATE t SET c2 = 'test' WHERE c1;  -- expect: ok
/* t2 */ COMMIT;
