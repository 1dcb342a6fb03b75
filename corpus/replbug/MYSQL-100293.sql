-- id: MYSQL-100293
-- title: The SERIALIZABLE transactions are not blocked for query cache
-- link: https://bugs.mysql.com/bug.php?id=100293
-- dbms: MySQL 5.7.31
-- isolation: serializable
-- source: ReplBug thesis (paper 003), replbug/MYSQL-100293.txt scenario_0
-- description: The SERIALIZABLE transactions are not blocked for query cache
-- bug-type: Missing blocking; levels where it manifested (correlation sheet): serializable
-- buggy: With the query cache on, the SERIALIZABLE SELECT was answered from the cache without taking shared locks, so the INSERT did not wait.
-- Reproduces only with query_cache_type=ON (MySQL 5.7 / MariaDB query cache); SHOW STATUS lines are informative only.
/* t1 */ CREATE TABLE t(c1 INT);
/* t1 */ INSERT INTO t VALUES(1),(2);
/* t1 */ BEGIN;
/* t1 */ SELECT * FROM t;
/* t1 */ COMMIT;
/* t1 */ flush status;
/* t1 */ SHOW STATUS LIKE "Qcache_hits";
/* t1 */ BEGIN;
/* t1 */ SELECT * FROM t;
/* t1 */ SHOW STATUS LIKE "Qcache_hits";
/* t2 */ INSERT INTO t VALUES(3);  -- expect: blocked then affected 1
/* t1 */ COMMIT;
