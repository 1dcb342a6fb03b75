-- id: writecheck-mysql_test-3
-- title: UPDATE ... WHERE CAST('a' AS SIGNED) after DELETE in the same transaction (TiDB#39972 pattern)
-- dbms: MySQL
-- source: WriteCheck, writecheck/mysql_test.txt (case 3 of 4)
-- WriteCheck test case; single transaction. No expectation: whether the constant CAST must raise an error in strict mode is unclear.
/* init */ CREATE TABLE t(c1 INT);
/* init */ INSERT INTO t VALUES (2);
-- schedule 1-1-1-1
/* t1 */ BEGIN;
/* t1 */ DELETE FROM t WHERE TRUE;
/* t1 */ UPDATE t SET c1=0 WHERE (CAST('a' AS SIGNED));
/* t1 */ COMMIT;
