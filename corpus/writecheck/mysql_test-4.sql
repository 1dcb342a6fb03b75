-- id: writecheck-mysql_test-4
-- title: DELETE ... WHERE c2 waiting for an UPDATE that sets c2 = 1 must delete the row
-- dbms: MySQL
-- isolation: repeatable-read, serializable
-- source: WriteCheck, writecheck/mysql_test.txt (case 4 of 4)
-- WriteCheck test case (no bug id in the data); the serial order is t1 -> t2 (same semi-consistent-read caveat as mysql_test-1).
/* init */ CREATE TABLE t(c1 INT, c2 INT);
/* init */ INSERT INTO t(c1, c2) VALUES (2, NULL);
-- schedule 1-1-2-2-1-2
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET c1=1, c2=1;
/* t2 */ BEGIN;
/* t2 */ DELETE FROM t WHERE c2;
/* t1 */ COMMIT;
/* t2 */ COMMIT;
-- expect final: t = []
