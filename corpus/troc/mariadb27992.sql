-- id: troc-mariadb27992
-- title: DELETE fails to delete the row after its lock wait ends
-- link: https://jira.mariadb.org/browse/MDEV-27992
-- dbms: MariaDB
-- isolation: read-committed
-- source: Troc, troc/mariadb27992.txt
-- source-levels: read-committed
-- source-verdict: Error: Inconsistent final database state Verified
-- buggy: t2's DELETE deleted nothing after t1 committed; the final table still held 3.
/* init */ CREATE TABLE t(c1 INT PRIMARY KEY);
/* init */ INSERT INTO t(c1) VALUES (8);
-- schedule 1-2-1-2-1-1-2-2
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t1 */ UPDATE t SET c1 = 5;
/* t2 */ DELETE FROM t;
/* t1 */ UPDATE t SET c1 = 3;
/* t1 */ COMMIT;
/* t2 */ SELECT * FROM t FOR UPDATE;  -- expect: rows []
/* t2 */ COMMIT;
-- expect final: t = []
