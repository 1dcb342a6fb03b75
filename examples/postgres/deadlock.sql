-- id: postgres-deadlock
-- title: Two transactions lock two rows in opposite orders; the one that closes the cycle is aborted
-- dbms: PostgreSQL 15
-- isolation: read-committed, repeatable-read, serializable
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);
/* init */ INSERT INTO t VALUES (1, 10), (2, 20);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t1 */ UPDATE t SET v = 11 WHERE k = 1;      -- expect: affected 1
/* t2 */ UPDATE t SET v = 22 WHERE k = 2;      -- expect: affected 1
/* t1 */ UPDATE t SET v = 12 WHERE k = 2;      -- expect: blocked then affected 1
/* t2 */ UPDATE t SET v = 21 WHERE k = 1;      -- expect: blocked then deadlock
/* t1 */ COMMIT;                               -- expect: ok
/* t2 */ COMMIT;                               -- expect: ok -- ROLLBACK was sent; nothing to commit
-- expect final: t = [(1, 11), (2, 12)]
