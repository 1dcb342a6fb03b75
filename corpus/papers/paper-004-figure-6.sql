-- id: paper-004-figure-6
-- title: REPEATABLE READ with START TRANSACTION WITH CONSISTENT SNAPSHOT reads a row committed after the snapshot
-- dbms: OceanBase 4.2.1
-- isolation: repeatable-read
-- source: APTrans paper (004), Figure 6 (OceanBase Bug#2248; the paper gives no link)
-- buggy: txn 2's SELECT returned [(1, 10), (2, 2)] (non-repeatable read).
-- The SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ lines of the figure are dropped (isolation header).
/* init */ CREATE TABLE t (ID INT, c0 INT);
/* init */ INSERT INTO t VALUES (1, 1), (2, 2);
/* t1 */ START TRANSACTION WITH CONSISTENT SNAPSHOT;
/* t2 */ START TRANSACTION WITH CONSISTENT SNAPSHOT;
/* t1 */ UPDATE t SET c0 = 10 WHERE (ID = 1);
/* t1 */ COMMIT;
/* t2 */ SELECT * FROM t;  -- expect: rows [(1, 1), (2, 2)]
/* t2 */ COMMIT;
-- expect final: t = [(1, 10), (2, 2)]
