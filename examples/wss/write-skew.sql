-- id: write-skew
-- title: Write skew: each transaction writes from a snapshot that misses the other's write
-- dbms: PostgreSQL (snapshot isolation at repeatable-read)
-- isolation: repeatable-read
-- Each UPDATE changes its own row only if no row is set yet. Under snapshot isolation both
-- read the initial snapshot and both write; in either serial order the second finds a row
-- set and writes nothing. SERIALIZABLE (SSI) aborts one of them.
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);
/* init */ INSERT INTO t VALUES (1, 0), (2, 0);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t1 */ UPDATE t SET v = 1 WHERE k = 1 AND (SELECT SUM(v) FROM t) = 0;
/* t2 */ UPDATE t SET v = 1 WHERE k = 2 AND (SELECT SUM(v) FROM t) = 0;
/* t1 */ COMMIT;
/* t2 */ COMMIT;
