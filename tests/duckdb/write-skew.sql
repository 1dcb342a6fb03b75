-- id: duckdb-write-skew
-- title: Write skew in DuckDB: permissible, its one level is snapshot isolation
-- dbms: DuckDB 1.5.6
-- isolation: snapshot
-- wss: permissible write-skew
-- Both transactions read the initial snapshot and write different rows: snapshot isolation
-- lets both commit, no serial order does. DuckDB has no stronger level to re-run the case at;
-- txhunt replays each transaction alone on its snapshot instead.
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);
/* init */ INSERT INTO t VALUES (1, 0), (2, 0);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t1 */ UPDATE t SET v = 1 WHERE k = 1 AND (SELECT SUM(v) FROM t) = 0;  -- expect: affected 1
/* t2 */ UPDATE t SET v = 1 WHERE k = 2 AND (SELECT SUM(v) FROM t) = 0;  -- expect: affected 1
/* t1 */ COMMIT;
/* t2 */ COMMIT;
-- expect final: t = [(1, 1), (2, 1)]
