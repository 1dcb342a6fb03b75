-- id: troc-mariadb26642-2
-- title: UPDATE ... WHERE true and a concurrently inserted row: the later SELECT omits it
-- link: https://jira.mariadb.org/browse/MDEV-26642
-- dbms: MariaDB
-- isolation: repeatable-read
-- source: Troc, troc/mariadb26642.txt (case 2 of 2)
-- source-levels: repeatable-read
-- source-verdict: Error: Inconsistent query result Verified!
-- Only the final state is expected: whether t1's SELECT must show the row (10, 2) inserted and committed by t2
-- (which t1's UPDATE matched without changing) differs between snapshot models.
/* init */ CREATE TABLE t(c1 INT, c2 INT);
/* init */ INSERT INTO t VALUES (0, 0), (1, 1);
-- schedule 1-1-2-2-2-1-1-1-1
/* t1 */ BEGIN;
/* t1 */ SELECT * FROM t;
/* t2 */ BEGIN;
/* t2 */ INSERT INTO t(c1, c2) VALUES(10, 2);
/* t2 */ COMMIT;
/* t1 */ SELECT * FROM t;
/* t1 */ UPDATE t SET c1 = 10 WHERE true;
/* t1 */ SELECT * FROM t;
/* t1 */ COMMIT;
-- expect final: t = [(10, 0), (10, 1), (10, 2)]
