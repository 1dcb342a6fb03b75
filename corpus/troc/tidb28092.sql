-- id: troc-tidb28092
-- title: UPDATE ... WHERE <blob column> reports an error after another UPDATE in the transaction
-- link: https://github.com/pingcap/tidb/issues/28092
-- dbms: TiDB
-- isolation: repeatable-read
-- source: Troc, troc/tidb28092.txt
-- source-levels: repeatable-read
-- source-verdict: Error: Inconsistent final database state
-- buggy: TiDB reported an error for the UPDATE ... WHERE c1, leaving an inconsistent final state.
/* init */ CREATE TABLE t(c1 BLOB NOT NULL, c2 TEXT);
/* init */ INSERT IGNORE INTO t VALUES (NULL, NULL);
/* init */ INSERT INTO t VALUES (0x32, 'aaa');
-- schedule 1-1-1-2-2-2-2
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET c2 = 'xyz' WHERE c1;  -- expect: ok
/* t1 */ ROLLBACK;
/* t2 */ BEGIN;
/* t2 */ UPDATE t SET c2 = 'bbb';
/* t2 */ UPDATE t SET c2 = 'xyz' WHERE c1;  -- expect: ok
/* t2 */ COMMIT;
