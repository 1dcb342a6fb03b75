-- id: troc-tidb28212-1
-- title: A row the transaction itself updated is not shown with its new value (no-op UPDATE on a concurrently changed row)
-- link: https://github.com/pingcap/tidb/issues/28212
-- dbms: TiDB
-- isolation: repeatable-read
-- source: Troc, troc/tidb28212.txt (case 1 of 2)
-- source-levels: repeatable-read
-- source-verdict: Error: Inconsistent query result Verified!
-- buggy: t1's last SELECT returned (1, 1) for the row it had updated to c1 = 10.
/* init */ CREATE TABLE t (c1 INT, c2 INT);
/* init */ INSERT INTO t VALUES (0, 0), (1, 1), (2,2);
-- schedule 1-1-2-2-2-1-1-1-1
/* t1 */ BEGIN;
/* t1 */ SELECT * FROM t;
/* t2 */ BEGIN;
/* t2 */ UPDATE t SET c1 = 10 WHERE c2 = 1;
/* t2 */ COMMIT;
/* t1 */ SELECT * FROM t;
/* t1 */ UPDATE t SET c1=10 WHERE c2 = 1;
/* t1 */ SELECT * FROM t;  -- expect: rows [(0, 0), (10, 1), (2, 2)]
/* t1 */ COMMIT;
-- expect final: t = [(0, 0), (10, 1), (2, 2)]
