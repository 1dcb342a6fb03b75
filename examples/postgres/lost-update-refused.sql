-- id: postgres-lost-update-refused
-- title: At repeatable-read PostgreSQL makes the second writer wait, then refuses it (could not serialize)
-- dbms: PostgreSQL 15
-- isolation: repeatable-read, serializable
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);
/* init */ INSERT INTO t VALUES (1, 10);
/* t1 */ BEGIN;
/* t1 */ SELECT v FROM t WHERE k = 1;          -- expect: rows [10]
/* t2 */ BEGIN;
/* t2 */ SELECT v FROM t WHERE k = 1;          -- expect: rows [10]
/* t1 */ UPDATE t SET v = 11 WHERE k = 1;      -- expect: affected 1
/* t2 */ UPDATE t SET v = 12 WHERE k = 1;      -- expect: blocked then error serialization
/* t1 */ COMMIT;                               -- expect: ok
/* t2 */ COMMIT;                               -- expect: ok -- ROLLBACK was sent; nothing to commit
-- expect final: t = [(1, 11)]
