-- id: duckdb-17223-update-delete
-- title: An UPDATE and a concurrent DELETE of the same row both commit: the update is lost
-- link: https://github.com/duckdb/duckdb/issues/17223
-- dbms: DuckDB 1.5.6
-- isolation: snapshot
-- DuckDB issue #17223 (closed as stale; still so in 1.5.6): DuckDB documents that the second
-- of two concurrent edits (update or delete) of a row fails with a conflict. Here both
-- transactions commit: t2 deleted the version t1 overwrote (t2 -rw-> t1 -ww-> t2, G-single),
-- which snapshot isolation proscribes. The final state equals the serial order t1 → t2, so
-- only the missing conflict tells. It depends on how the rows were stored: with the three
-- rows inserted by one statement, or with the writes instrumented (RETURNING), the DELETE
-- conflicts as documented.
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);
/* init */ INSERT INTO t VALUES (1, 10), (2, 20);
/* init */ INSERT INTO t VALUES (3, 30);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t1 */ UPDATE t SET v = 12 WHERE k = 1;  -- expect: affected 1
/* t2 */ DELETE FROM t WHERE k = 1;  -- expect: error serialization
/* t1 */ COMMIT;
/* t2 */ COMMIT;
-- expect final: t = [(1, 12), (2, 20), (3, 30)]
