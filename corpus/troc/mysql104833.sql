-- id: troc-mysql104833
-- title: Blocked UPDATE ... WHERE a skips rows whose committed a was NULL (semi-consistent read)
-- link: https://bugs.mysql.com/bug.php?id=104833
-- dbms: MySQL
-- isolation: read-committed
-- source: Troc, troc/mysql104833.txt
-- source-levels: read-committed
-- source-verdict: Error: Inconsistent final database state RU, RC: Verified!
-- buggy: Rows whose last committed a was NULL kept their old b (MySQL verified it at RU and RC).
-- Disputed: at read-uncommitted/read-committed InnoDB documents this as "semi-consistent read"; the WriteCheck paper (001, Listing 5) calls the same pattern permissible, while the bug trackers accepted it.
/* init */ CREATE TABLE t(a INT, b INT);
/* init */ INSERT INTO t VALUES(NULL, 1), (2, 2), (NULL, 3);
-- schedule 1-1-2-2-1-2
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET a = 10;
/* t2 */ BEGIN;
/* t2 */ UPDATE t SET b = 20 WHERE a;
/* t1 */ COMMIT;
/* t2 */ COMMIT;
-- expect final: t = [(10, 20), (10, 20), (10, 20)]
