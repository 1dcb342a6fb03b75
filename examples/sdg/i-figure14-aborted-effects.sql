-- id: sdg-fig14-aborted-effects
-- title: TxCheck Figure 14: an aborted transaction affects a committed one (MySQL)
-- link: https://bugs.mysql.com/bug.php?id=107066
-- sdg-order: t1.2
-- The paper's T0 is t1 and its T1 is t2; the elided values are ours. t2 inserts four rows
-- and rolls back; t1 then updates the rows its NOT IN predicate matches. The aborted
-- transaction's statements are not in the graph, so the sequential execution is the update
-- alone, and it must match what it matched in the run: MySQL's matched 39 rows in the run
-- and none sequentially.
/* init */ CREATE TABLE t0 (pkey INT PRIMARY KEY, vkey INT, c5 INT);
/* init */ INSERT INTO t0 VALUES (1, 10, 1), (2, 11, 2), (3, 12, 3), (4, 13, 4);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t2 */ INSERT INTO t0 VALUES (141, 210, 5), (142, 211, 6), (143, 212, 7), (144, 213, 8);  -- expect: affected 4
/* t2 */ ROLLBACK;
/* t1 */ UPDATE t0 SET vkey = 116 WHERE c5 NOT IN (SELECT subq0.c0 FROM (SELECT c5 AS c0 FROM t0) AS subq0 WHERE subq0.c0 < (SELECT MAX(c5) FROM t0));  -- expect: affected 1
/* t1 */ COMMIT;
