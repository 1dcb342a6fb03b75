-- id: sqlite-duckdb-write-skew
-- title: SQLite's SERIALIZABLE refuses the second writer, DuckDB's snapshot isolation lets both write
-- dbms: SQLite 3.54.1 (bundled) vs DuckDB 1.5.6
-- isolation: serializable
-- pair: sqlite duckdb
-- differential: deadlock concurrency-control
-- DuckDB has one level, snapshot isolation, so it runs the SERIALIZABLE case at it. SQLite
-- lets one writer in at a time and refuses t2's write at once (SQLITE_BUSY: t2 holds a read
-- snapshot while t1 writes); DuckDB lets both transactions write from their snapshots (write
-- skew, which its level allows). Each run is what its own level allows.
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);
/* init */ INSERT INTO t VALUES (1, 0), (2, 0);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t1 */ SELECT SUM(v) FROM t;
/* t2 */ SELECT SUM(v) FROM t;
/* t1 */ UPDATE t SET v = 1 WHERE k = 1;
/* t2 */ UPDATE t SET v = 1 WHERE k = 2;
/* t1 */ COMMIT;
/* t2 */ COMMIT;
