-- id: paper-004-figure-7
-- title: SERIALIZABLE: a transaction sees rows of a concurrent transaction that committed after it started writing
-- dbms: MariaDB
-- isolation: serializable
-- source: APTrans paper (004), Figure 7 (MariaDB Bug#36330)
-- buggy: txn 1's SELECT returned [(1, 1), (2, 2), (3, 3)], which matches no serial order.
-- The SET SESSION TRANSACTION ISOLATION LEVEL SERIALIZABLE lines of the figure are dropped (isolation header).
-- No expectation: a correct execution returns [(1, 1)] (txn 1 first) or aborts a transaction; which one is allowed
-- depends on the DBMS, and the scenario language cannot state "one of".
/* init */ CREATE TABLE t (c0 INT PRIMARY KEY AUTO_INCREMENT, c1 INT);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t1 */ INSERT INTO t(c1) VALUES(1);
/* t2 */ INSERT INTO t(c1) VALUES(2), (3);
/* t2 */ COMMIT;
/* t1 */ SELECT * FROM t;
/* t1 */ COMMIT;
