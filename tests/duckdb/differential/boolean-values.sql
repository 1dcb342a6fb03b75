-- id: sqlite-duckdb-boolean-values
-- title: A BOOLEAN column holds 0 in SQLite and FALSE in DuckDB: the same SQL value
-- dbms: SQLite 3.54.1 (bundled) vs DuckDB 1.5.6
-- isolation: serializable
-- pair: sqlite duckdb
-- differential: none
-- SQLite stores a BOOLEAN as an integer and DuckDB has a boolean type; the differential oracle
-- compares values as SQL values, so the representations do not differ.
/* init */ CREATE TABLE t(k INT PRIMARY KEY, b BOOLEAN, d DECIMAL(10, 2));
/* init */ INSERT INTO t VALUES (1, 0, 1.5), (2, 1, 2);
/* t1 */ BEGIN;
/* t1 */ SELECT * FROM t;
/* t1 */ UPDATE t SET d = d + 1 WHERE b = 1;
/* t1 */ COMMIT;
