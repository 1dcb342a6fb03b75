-- id: stale-snapshot
-- title: A transaction whose snapshot predates another commit may not write (SQLITE_BUSY_SNAPSHOT)
-- dbms: SQLite
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);
/* init */ INSERT INTO t VALUES (1, 10);
/* t1 */ BEGIN;
/* t1 */ SELECT v FROM t;                      -- expect: rows [10]
/* t2 */ UPDATE t SET v = 20;                  -- expect: affected 1
/* t1 */ SELECT v FROM t;                      -- expect: rows [10] -- still t1's snapshot
/* t1 */ UPDATE t SET v = v + 1;               -- expect: error serialization
/* t1 */ COMMIT;                               -- expect: error
-- expect final: t = [(1, 20)]
