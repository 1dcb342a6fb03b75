-- id: writer-blocks-writer
-- title: A second writer waits for the first writer's COMMIT, then succeeds
-- dbms: SQLite
-- isolation: serializable
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);
/* init */ INSERT INTO t VALUES (1, 10), (2, 20);
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET v = v + 1 WHERE k = 1;  -- expect: affected 1
/* t2 */ BEGIN;
/* t2 */ UPDATE t SET v = v * 2 WHERE k = 2;  -- expect: blocked then affected 1
/* t1 */ SELECT v FROM t ORDER BY k;           -- expect: rows [11, 20]
/* t1 */ COMMIT;                               -- expect: ok
/* t2 */ SELECT v FROM t ORDER BY k;           -- expect: rows [11, 40]
/* t2 */ COMMIT;                               -- expect: ok
-- expect final: t = [(1, 11), (2, 40)]
