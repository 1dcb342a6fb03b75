-- id: postgres-rc-statement-order
-- title: READ COMMITTED shown statement by statement where neither a snapshot replay nor a stronger level can
-- isolation: read-committed
-- t2's DELETE waits for t1's row 2, re-checks it on its new version and skips it, and never
-- sees row 1, which came to match meanwhile (PostgreSQL 15 §13.2.1's own example): the serial
-- order t1 → t2 → t3 deletes row 1, the run deletes nothing. t3's INSERT reads row 5
-- as t1 committed it, newer than t3's snapshot: not snapshot isolation. At REPEATABLE READ
-- and SERIALIZABLE t3 reads 5, inserts key 105, which the CHECK refuses, and aborts: another
-- path, so no stronger level shows it. The statements show READ COMMITTED: each gives its
-- result in a sequential order its dependencies allow, the DELETE's difference being the
-- documented re-check of the rows it waited for.
/* init */ CREATE TABLE t (k INT PRIMARY KEY CHECK (k <> 105), v INT);
/* init */ INSERT INTO t VALUES (1, 9), (2, 10), (5, 5);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t3 */ BEGIN;
/* t3 */ SELECT v FROM t WHERE k = 1;                          -- expect: rows [9]
/* t1 */ UPDATE t SET v = v + 1 WHERE k IN (1, 2);            -- expect: affected 2
/* t2 */ DELETE FROM t WHERE v = 10;                          -- expect: blocked then affected 0
/* t1 */ UPDATE t SET v = 7 WHERE k = 5;                      -- expect: affected 1
/* t1 */ COMMIT;
/* t3 */ INSERT INTO t VALUES ((SELECT v + 100 FROM t WHERE k = 5), 0);  -- expect: affected 1
/* t2 */ COMMIT;
/* t3 */ COMMIT;
-- expect final: t = [(1, 10), (2, 11), (5, 7), (107, 0)]
