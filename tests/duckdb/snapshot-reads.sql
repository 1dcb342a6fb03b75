-- id: duckdb-snapshot-reads
-- title: Repeated reads inside one DuckDB transaction see none of a concurrent commit
-- dbms: DuckDB 1.5.6
-- isolation: snapshot
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);
/* init */ INSERT INTO t VALUES (1, 0), (2, 0);
/* t1 */ BEGIN;
/* t1 */ SELECT COUNT(*) FROM t;  -- expect: rows [(2)]
/* t2 */ BEGIN;
/* t2 */ INSERT INTO t VALUES (3, 0), (4, 0);
/* t2 */ UPDATE t SET v = 9 WHERE k = 1;
/* t2 */ COMMIT;
/* t1 */ SELECT COUNT(*) FROM t;  -- expect: rows [(2)]
/* t1 */ SELECT v FROM t WHERE k = 1;  -- expect: rows [(0)]
/* t3 */ SELECT COUNT(*) FROM t;  -- expect: rows [(4)]
/* t1 */ COMMIT;
-- expect final: t = [(1, 9), (2, 0), (3, 0), (4, 0)]
