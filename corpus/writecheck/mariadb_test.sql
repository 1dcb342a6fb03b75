-- id: writecheck-mariadb_test
-- title: Two UPDATEs swapping c1 values: the waiting UPDATE must re-evaluate its WHERE on the committed row
-- dbms: MariaDB
-- isolation: repeatable-read, serializable
-- source: WriteCheck, writecheck/mariadb_test.txt
-- WriteCheck test case (no bug id in the data). At read-committed the same schedule gives a permissible WSS violation
-- (semi-consistent read, paper 001 Listing 5), so only repeatable-read and serializable are run; the serial order is t1 -> t2.
/* init */ CREATE TABLE t(c1 INT, c2 VARCHAR(5));
/* init */ INSERT INTO t(c1) VALUES(1), (5);
-- schedule 1-1-2-2-1-2
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET c1 = 1, c2 = 't1' WHERE c1 = 5;
/* t2 */ BEGIN;
/* t2 */ UPDATE t SET c1 = 5, c2 = 't2' WHERE c1 = 1;
/* t1 */ COMMIT;
/* t2 */ COMMIT;
-- expect final: t = [(5, 't2'), (5, 't2')]
