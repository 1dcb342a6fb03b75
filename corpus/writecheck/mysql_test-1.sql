-- id: writecheck-mysql_test-1
-- title: DELETE ... WHERE c2 waiting for an UPDATE that sets c2 = TRUE must delete the row
-- dbms: MySQL
-- isolation: repeatable-read, serializable
-- source: WriteCheck, writecheck/mysql_test.txt (case 1 of 4)
-- WriteCheck test case (no bug id in the data); the serial order is t1 -> t2. At RU/RC the same schedule is the
-- semi-consistent-read pattern (MySQL#104833), which the WriteCheck paper treats as permissible, so those levels are not run.
/* init */ CREATE TABLE t(c1 INT, c2 BOOLEAN);
/* init */ INSERT INTO t(c1, c2) VALUES(1, NULL);
-- schedule 1-1-2-2-1-2
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET c2 = TRUE WHERE TRUE;
/* t2 */ BEGIN;
/* t2 */ DELETE FROM t WHERE c2;
/* t1 */ COMMIT;
/* t2 */ COMMIT;
-- expect final: t = []
