-- id: turso-mvcc-write-conflict
-- title: MVCC mode: the second writer of a row fails at once, nothing blocks
-- dbms: Turso 0.8.3 (MVCC mode)
-- isolation: snapshot
-- BEGIN is sent as BEGIN CONCURRENT; Turso rolls the losing transaction back itself.
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);
/* init */ INSERT INTO t VALUES (1, 0), (2, 0);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t1 */ UPDATE t SET v = 1 WHERE k = 1;  -- expect: affected 1
/* t2 */ UPDATE t SET v = 2 WHERE k = 2;  -- expect: affected 1
/* t2 */ UPDATE t SET v = 3 WHERE k = 1;  -- expect: error serialization
/* t1 */ COMMIT;
/* t2 */ COMMIT;
-- expect final: t = [(1, 1), (2, 0)]
