-- id: troc-mysql105030
-- title: UPDATE of all rows then SELECT omits the row inserted by a concurrent committed transaction
-- link: https://bugs.mysql.com/bug.php?id=105030
-- dbms: MySQL
-- isolation: repeatable-read
-- source: Troc, troc/mysql105030.txt
-- source-levels: repeatable-read
-- source-verdict: Error: Inconsistent query result
-- Only the final state is expected (see troc/mariadb26642-2.sql for why the SELECT is not).
/* init */ CREATE TABLE t ( c1 INT , c2 INT );
/* init */ INSERT INTO t VALUES (0 ,0) ,(1 ,1);
-- schedule 1-1-2-2-2-1-1-1-1
/* t1 */ BEGIN;
/* t1 */ SELECT * FROM t;
/* t2 */ BEGIN;
/* t2 */ INSERT INTO t(c1 , c2) VALUES (10 , 2);
/* t2 */ COMMIT;
/* t1 */ SELECT * FROM t;
/* t1 */ UPDATE t SET c1 = 10;
/* t1 */ SELECT * FROM t;
/* t1 */ COMMIT;
-- expect final: t = [(10, 0), (10, 1), (10, 2)]
