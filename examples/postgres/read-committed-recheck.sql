-- id: postgres-read-committed-recheck
-- title: At read-committed the waiting writer re-reads the row after the first commit and builds on it
-- dbms: PostgreSQL 15
-- isolation: read-committed
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);
/* init */ INSERT INTO t VALUES (1, 10);
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET v = v + 1 WHERE k = 1;   -- expect: affected 1
/* t2 */ UPDATE t SET v = v * 2 WHERE k = 1;   -- expect: blocked then affected 1
/* t1 */ COMMIT;                               -- expect: ok
-- expect final: t = [(1, 22)]
