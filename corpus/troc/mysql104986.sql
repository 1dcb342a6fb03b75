-- id: troc-mysql104986
-- title: After UPDATE of all rows, SELECT still shows the old value of the row a concurrent transaction had set to the same value
-- link: https://bugs.mysql.com/bug.php?id=104986
-- dbms: MySQL
-- isolation: repeatable-read
-- source: Troc, troc/mysql104986.txt
-- source-levels: repeatable-read
-- source-verdict: Error: Inconsistent query result Duplicate...
-- buggy: t1's last SELECT showed (1, 1) although its UPDATE set a = 10 in every row.
/* init */ CREATE TABLE t(a int, b int);
/* init */ INSERT INTO t VALUES(0, 0), (1, 1), (2, 2);
-- schedule 1-1-2-2-2-1-1-1-1
/* t1 */ BEGIN;
/* t1 */ SELECT * FROM t;
/* t2 */ BEGIN;
/* t2 */ UPDATE t SET a = 10 WHERE b = 1;
/* t2 */ COMMIT;
/* t1 */ SELECT * FROM t;
/* t1 */ UPDATE t SET a = 10;
/* t1 */ SELECT * FROM t;  -- expect: rows [(10, 0), (10, 1), (10, 2)]
/* t1 */ COMMIT;
-- expect final: t = [(10, 0), (10, 1), (10, 2)]
