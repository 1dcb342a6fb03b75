-- id: sqlite-duckdb-referenced-row-update
-- title: Updating a column of a row another table references: SQLite takes it, DuckDB refuses it
-- dbms: SQLite 3.54.1 (bundled) vs DuckDB 1.5.6
-- isolation: serializable
-- pair: sqlite duckdb
-- differential: error sql-semantics
-- From `txhunt fuzz --target sqlite --target duckdb --isolation serializable --seed 19`
-- (case 39, where the UPDATE set another column of the instrumented table), reduced. DuckDB
-- refuses an UPDATE that sets the key of a row a foreign key references even when the key
-- does not change (its documented over-eager constraint checking); with no concurrency this
-- is SQL semantics, not a transaction bug.
/* init */ CREATE TABLE t (k BOOLEAN, v INT NOT NULL, PRIMARY KEY (v));
/* init */ CREATE TABLE t2 (w INT, FOREIGN KEY (w) REFERENCES t(v));
/* init */ INSERT INTO t (k, v) VALUES (0, 1);
/* init */ INSERT INTO t2 (w) VALUES (1);
/* t1 */ UPDATE t SET v = v;
