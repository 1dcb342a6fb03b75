-- id: turso-mvcc-write-skew
-- title: Write skew under BEGIN CONCURRENT: permissible, shown by replaying each transaction on its snapshot
-- dbms: Turso 0.8.3 (MVCC mode)
-- isolation: snapshot
-- wss: permissible write-skew
-- Both transactions read the initial snapshot and write different rows: snapshot isolation
-- lets both commit, no serial order does. Turso has no stronger level to re-run the case at;
-- txhunt replays each transaction alone on its snapshot instead.
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);
/* init */ INSERT INTO t VALUES (1, 0), (2, 0);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t1 */ UPDATE t SET v = 1 WHERE k = 1 AND (SELECT SUM(v) FROM t) = 0;  -- expect: affected 1
/* t2 */ UPDATE t SET v = 1 WHERE k = 2 AND (SELECT SUM(v) FROM t) = 0;  -- expect: affected 1
/* t1 */ COMMIT;
/* t2 */ COMMIT;
-- expect final: t = [(1, 1), (2, 1)]
