-- id: troc-tidb28212-2
-- title: UPDATE ... WHERE true and a concurrently inserted row: the later SELECT omits it
-- link: https://github.com/pingcap/tidb/issues/28212
-- dbms: TiDB
-- isolation: repeatable-read
-- source: Troc, troc/tidb28212.txt (case 2 of 2)
-- source-levels: repeatable-read
-- source-verdict: Error: Inconsistent query result Verified!
-- Only the final state is expected (see troc/mariadb26642-2.sql).
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
