-- id: dirty-read
-- title: Under read-uncommitted a reader sees a write before it is committed, and after it is rolled back it is gone
-- dbms: SQLite
-- isolation: read-uncommitted
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);
/* init */ INSERT INTO t VALUES (1, 10);
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET v = 99 WHERE k = 1;      -- expect: affected 1
/* t2 */ SELECT v FROM t WHERE k = 1;          -- expect: rows [99]
/* t1 */ ROLLBACK;                             -- expect: ok
/* t2 */ SELECT v FROM t WHERE k = 1;          -- expect: rows [10]
-- expect final: t = [(1, 10)]
