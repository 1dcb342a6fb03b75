-- id: sqlite-duckdb-error-ends-transaction
-- title: A duplicate key fails only the INSERT on SQLite and aborts the transaction on DuckDB
-- dbms: SQLite 3.54.1 (bundled) vs DuckDB 1.5.6
-- isolation: serializable
-- pair: sqlite duckdb
-- differential: error error-ends-transaction
-- Both refuse the duplicate key. SQLite fails the statement and t1 commits its first
-- insert; DuckDB aborts the transaction (an error raised while a statement runs does), so
-- txhunt rolls it back and t1's COMMIT finds no transaction. Each DBMS documents what its
-- errors do: a compatibility difference, not a bug.
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);
/* init */ INSERT INTO t VALUES (1, 0);
/* t1 */ BEGIN;
/* t1 */ INSERT INTO t VALUES (2, 0);
/* t1 */ INSERT INTO t VALUES (1, 1);
/* t1 */ COMMIT;
