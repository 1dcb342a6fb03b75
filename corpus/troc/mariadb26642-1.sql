-- id: troc-mariadb26642-1
-- title: A row the transaction itself updated is not shown with its new value (no-op UPDATE on a concurrently changed row)
-- link: https://jira.mariadb.org/browse/MDEV-26642
-- dbms: MariaDB
-- isolation: repeatable-read
-- source: Troc, troc/mariadb26642.txt (case 1 of 2)
-- source-levels: repeatable-read
-- source-verdict: Error: Inconsistent query result Verified!
-- buggy: t1's last SELECT returned (1, 1) for the row it had just updated to c1 = 10 (the value was already 10 from t2).
/* init */ CREATE TABLE t (c1 INT, c2 INT);
/* init */ INSERT INTO t VALUES (0, 0), (1, 1), (2,2);
-- schedule 1-1-2-2-2-1-1-1-1
/* t1 */ BEGIN;
/* t1 */ SELECT * FROM t;
/* t2 */ BEGIN;
/* t2 */ UPDATE t SET c1 = 10 WHERE TRUE;
/* t2 */ COMMIT;
/* t1 */ SELECT * FROM t;
/* t1 */ UPDATE t SET c1=10 WHERE c2 = 1;
/* t1 */ SELECT * FROM t;  -- expect: rows [(0, 0), (10, 1), (2, 2)]
/* t1 */ COMMIT;
-- expect final: t = [(10, 0), (10, 1), (10, 2)]
