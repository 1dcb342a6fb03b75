-- id: troc-tidb30239
-- title: After DELETE ... WHERE a = 1 OR a = 2, SELECT still shows the row a concurrent transaction deleted
-- link: https://github.com/pingcap/tidb/issues/30239
-- dbms: TiDB
-- isolation: repeatable-read
-- source: Troc, troc/tidb30239.txt
-- source-levels: repeatable-read
-- buggy: t1's last SELECT returned (1, 1) although its DELETE covered a = 1.
/* init */ CREATE TABLE t(a INT PRIMARY KEY, b INT);
/* init */ INSERT INTO t(a, b) VALUES (1, 1), (2, 2);
-- schedule 1-1-2-2-2-1-1-1-1
/* t1 */ BEGIN;
/* t1 */ SELECT * FROM t;
/* t2 */ BEGIN;
/* t2 */ DELETE FROM t WHERE a = 1;
/* t2 */ COMMIT;
/* t1 */ SELECT * FROM t;
/* t1 */ DELETE FROM t WHERE a = 1 OR a = 2;
/* t1 */ SELECT * FROM t;  -- expect: rows []
/* t1 */ COMMIT;
-- expect final: t = []
