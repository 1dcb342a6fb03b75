-- id: savepoint
-- title: ROLLBACK TO a savepoint undoes only what came after it
-- dbms: SQLite
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);
/* t1 */ BEGIN;
/* t1 */ INSERT INTO t VALUES (1, 1);          -- expect: affected 1
/* t1 */ SAVEPOINT a;                          -- expect: ok
/* t1 */ INSERT INTO t VALUES (2, 2);          -- expect: affected 1
/* t1 */ UPDATE t SET v = 100;                 -- expect: affected 2
/* t1 */ ROLLBACK TO a;                        -- expect: ok
/* t1 */ SELECT k, v FROM t;                   -- expect: rows [(1, 1)]
/* t1 */ RELEASE a;                            -- expect: ok
/* t1 */ COMMIT;                               -- expect: ok
-- expect final: t = [(1, 1)]
