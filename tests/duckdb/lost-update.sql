-- id: duckdb-lost-update
-- title: Read-modify-write of one row by two DuckDB transactions: the later writer fails at once
-- dbms: DuckDB 1.5.6
-- isolation: snapshot
-- DuckDB's optimistic concurrency control: the second edit of a row fails with a conflict
-- instead of waiting, and the first committer's increment survives.
/* init */ CREATE TABLE counter(id INT PRIMARY KEY, val INT);
/* init */ INSERT INTO counter VALUES (1, 0);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t1 */ SELECT val FROM counter WHERE id = 1;  -- expect: rows [(0)]
/* t2 */ SELECT val FROM counter WHERE id = 1;  -- expect: rows [(0)]
/* t1 */ UPDATE counter SET val = val + 1 WHERE id = 1;  -- expect: affected 1
/* t2 */ UPDATE counter SET val = val + 1 WHERE id = 1;  -- expect: error serialization
/* t1 */ COMMIT;
/* t2 */ COMMIT;
-- expect final: counter = [(1, 1)]
