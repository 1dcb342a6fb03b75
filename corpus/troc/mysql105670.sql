-- id: troc-mysql105670
-- title: After DELETE ... WHERE c1 = 1 OR c1 = 2, SELECT still shows the row a concurrent transaction deleted
-- link: https://bugs.mysql.com/bug.php?id=105670
-- dbms: MySQL
-- isolation: repeatable-read
-- source: Troc, troc/mysql105670.txt
-- source-levels: repeatable-read
-- source-verdict: Error: Inconsistent query result Duplicate...
-- buggy: t1's last SELECT returned (1, 1) although its DELETE covered c1 = 1.
/* init */ CREATE TABLE t (c1 INT PRIMARY KEY, c2 INT);
/* init */ INSERT INTO t VALUES(1, 1), (2, 2);
-- schedule 1-1-2-2-2-1-1-1-1
/* t1 */ BEGIN;
/* t1 */ SELECT * FROM t;
/* t2 */ BEGIN;
/* t2 */ DELETE FROM t WHERE c1 = 1;
/* t2 */ COMMIT;
/* t1 */ SELECT * FROM t;
/* t1 */ DELETE FROM t WHERE c1 = 1 OR c1 = 2;
/* t1 */ SELECT * FROM t;  -- expect: rows []
/* t1 */ COMMIT;
-- expect final: t = []
