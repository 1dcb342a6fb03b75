-- id: postgres-error-aborts-transaction
-- title: Any error inside a PostgreSQL transaction aborts it; txhunt sends the ROLLBACK it needs
-- dbms: PostgreSQL 15
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);
/* init */ INSERT INTO t VALUES (1, 10);
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET v = 11 WHERE k = 1;      -- expect: affected 1
/* t1 */ INSERT INTO t VALUES (1, 0);          -- expect: error constraint
/* t1 */ UPDATE t SET v = 12 WHERE k = 1;      -- expect: affected 1 -- runs in autocommit after the ROLLBACK
/* t1 */ COMMIT;                               -- expect: ok
-- expect final: t = [(1, 12)]
