-- id: paper-004-figure-1
-- title: SERIALIZABLE: UPDATE with a subquery over rows inserted by a committed concurrent transaction double-books
-- dbms: MariaDB
-- isolation: serializable
-- source: APTrans paper (004), Figure 1 (MariaDB Bug#36330, motivating example)
-- buggy: Final t1 = [(10), (10), (3)], which matches no serial order.
-- The SET SESSION TRANSACTION ISOLATION LEVEL SERIALIZABLE lines of the figure are dropped (isolation header).
-- No expectation: a correct serializable execution ends in t1 = [(1), (10), (10)] (t2 first) or [(10), (2), (3)] (t1 first),
-- or aborts a transaction; the scenario language cannot state "one of".
/* init */ CREATE TABLE t1 (c0 INT);
/* init */ CREATE TABLE t2 (c0 INT PRIMARY KEY AUTO_INCREMENT, c1 INT);
/* init */ INSERT INTO t1(c0) VALUES (1),(2),(3);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t1 */ INSERT INTO t2(c1) VALUES(1);
/* t2 */ INSERT INTO t2(c1) VALUES(2), (3);
/* t2 */ COMMIT;
/* t1 */ UPDATE t1 SET c0 = 10 WHERE c0 in (SELECT c1 FROM (SELECT * FROM t2 ORDER BY c0 LIMIT 2) AS t);
/* t1 */ COMMIT;
