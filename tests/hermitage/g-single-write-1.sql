-- id: hermitage-g-single-write-1
-- title: Read skew on a write predicate: a DELETE decides on rows a concurrent commit changed after the transaction's first read
-- link: https://github.com/ept/hermitage
-- adya: G-single when not prevented
-- t1 reads row 1 (10); t2 reads the table, rewrites both rows (12, 18) and commits; t1
-- deletes the rows whose value is 20 and reads row 2. t1 read row 1 before t2
-- (t1 -rw-> t2). If the DELETE evaluates t2's versions (row 2 is 18: nothing to delete),
-- t1 depends on t2 through its predicate (t2 -wr-> t1: t2's write changed what the DELETE
-- matches, a predicate read-dependency), and, at READ COMMITTED, through the read of row 2
-- too (t2 -wr-> t1 on row 2): G-single. InnoDB's REPEATABLE READ is the case Hermitage
-- shows: the DELETE reads the latest committed rows, the SELECT after it the old snapshot
-- (row 2 is still 20), so only the predicate read-dependency closes the cycle. Snapshot
-- isolation refuses the DELETE (row 2 changed since t1's snapshot).
/* init */ CREATE TABLE test (id INT PRIMARY KEY, value INT);
/* init */ INSERT INTO test (id, value) VALUES (1, 10), (2, 20);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t1 */ SELECT * FROM test WHERE id = 1;
/* t2 */ SELECT * FROM test;
/* t2 */ UPDATE test SET value = 12 WHERE id = 1;
/* t2 */ UPDATE test SET value = 18 WHERE id = 2;
/* t2 */ COMMIT;
/* t1 */ DELETE FROM test WHERE value = 20;
/* t1 */ SELECT * FROM test WHERE id = 2;
/* t1 */ COMMIT;
