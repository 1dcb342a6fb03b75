-- id: writecheck-mysql_test-2
-- title: DELETE of all rows waiting for a transaction that inserted and replaced rows must delete them all
-- dbms: MySQL
-- isolation: repeatable-read, serializable
-- source: WriteCheck, writecheck/mysql_test.txt (case 2 of 4)
-- WriteCheck test case (no bug id in the data); the serial order is t2 -> t1 (t1's DELETE waited for t2).
/* init */ CREATE TABLE t(c1 DOUBLE PRIMARY KEY);
/* init */ INSERT INTO t(c1) VALUES (1);
-- schedule 1-2-2-2-1-2-1
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t2 */ INSERT INTO t(c1) VALUES (2);
/* t2 */ REPLACE INTO t(c1) VALUES (1);
/* t1 */ DELETE FROM t;
/* t2 */ COMMIT;
/* t1 */ COMMIT;
-- expect final: t = []
