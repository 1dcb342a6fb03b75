-- id: dt2-mysql106655
-- title: SERIALIZABLE: a delete blocked by shared locks ends in an incorrect final state
-- link: https://bugs.mysql.com/bug.php?id=106655
-- dbms: MySQL
-- isolation: serializable
-- source: DT2 (paper 000), dt2/mysql106655.txt; bug list: dt2-bug-list.txt
-- upstream-status: Duplicate
-- No expectation: t1 holds shared locks, t2 waits, and t1's DELETE then conflicts with t2's waiting request;
-- which transaction a DBMS aborts (deadlock victim) legitimately varies, and the final state with it.
/* init */ CREATE TABLE t (c1 INT, c2 INT);
/* init */ INSERT INTO t(c1, c2) VALUES (1, 1), (2, 2);
-- schedule 1-1-2-2-2-1-1
/* t1 */ BEGIN;
/* t1 */ SELECT * FROM t;
/* t2 */ BEGIN;
/* t2 */ DELETE FROM t WHERE c1=1;
/* t2 */ COMMIT;
/* t1 */ DELETE FROM t;
/* t1 */ COMMIT;
