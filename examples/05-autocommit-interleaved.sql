-- id: autocommit-interleaved
-- title: Autocommit statements between explicit transactions: reads see the last commit, writes wait
-- dbms: SQLite
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);
/* init */ INSERT INTO t VALUES (1, 10);
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET v = 11 WHERE k = 1;      -- expect: affected 1
/* t2 */ SELECT v FROM t WHERE k = 1;          -- expect: rows [10]
/* t3 */ INSERT INTO t VALUES (2, 20);         -- expect: blocked then affected 1
/* t2 */ SELECT count(*) FROM t;               -- expect: rows [1]
/* t1 */ COMMIT;                               -- expect: ok
/* t2 */ SELECT k, v FROM t;                   -- expect: rows [(1, 11), (2, 20)]
/* t2 */ UPDATE t SET v = v + 1;               -- expect: affected 2
-- expect final: t = [(1, 12), (2, 21)]
