-- id: sqlite-duckdb-upsert-same-key-twice
-- title: An upsert whose rows collide with each other: SQLite applies both, DuckDB one
-- dbms: SQLite 3.54.1 (bundled) vs DuckDB 1.5.6
-- isolation: serializable
-- pair: sqlite duckdb
-- differential: result sql-semantics
-- From `txhunt fuzz --target sqlite --target duckdb --isolation serializable --seed 19`
-- (case 20), reduced. One statement, no concurrency: SQLite inserts the first row and lets
-- the second update it (affected 2); DuckDB answers affected 1. What differs is what the
-- statement does in each dialect, not how either isolates transactions.
/* init */ CREATE TABLE t (k DECIMAL(3, 1) NOT NULL CHECK ((k >= -1)), v INT NOT NULL, PRIMARY KEY (v));
/* t1 */ INSERT INTO t (k, v) VALUES (5, 2), (4, 2) ON CONFLICT(v) DO UPDATE SET k = (t.k + 2);
