-- id: dt2-mariadb27922
-- title: After a deadlock rolls back t2, its remaining statements see an inconsistent state
-- link: https://jira.mariadb.org/browse/MDEV-27922
-- dbms: MariaDB
-- isolation: repeatable-read, serializable
-- source: DT2 (paper 000), dt2/mariadb27922.txt; bug list: dt2-bug-list.txt
-- upstream-status: Critical, Verified
-- No expectation: t2's DELETE is the deadlock victim, after which txhunt rolls t2 back and its remaining statements run in autocommit mode;
-- the bug concerns the scope of the rolled-back transaction (paper 000, Figure 1), which the scenario language cannot state.
/* init */ CREATE TABLE t(c1 INT PRIMARY KEY);
/* init */ INSERT INTO t(c1) VALUES (8);
-- schedule 1-1-2-2-1-1-2-2-2
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET c1=5;
/* t2 */ BEGIN;
/* t2 */ DELETE FROM t;
/* t1 */ UPDATE t SET c1=3;
/* t1 */ COMMIT;
/* t2 */ INSERT IGNORE INTO t(c1) VALUES (2);
/* t2 */ SELECT * FROM t FOR UPDATE;
/* t2 */ ROLLBACK;
