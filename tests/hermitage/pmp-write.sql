-- id: hermitage-pmp-write
-- title: Predicate-many-preceders on a write predicate: a DELETE misses a row a concurrent update made match
-- link: https://github.com/ept/hermitage
-- adya: G-single with a predicate anti-dependency when not prevented
-- The example of PostgreSQL's manual (§13.2.1), as Hermitage's PostgreSQL file runs it. t1
-- adds 10 to every row (row 1 becomes 20, row 2 30); t2 deletes the rows whose value is 20,
-- waiting on t1's lock. Where the DELETE decided on the rows as they were before t1 (row 1
-- still 10) and re-checked only those it had matched (row 2, now 30), it deletes nothing, and
-- t2's next read finds row 1 with value 20: t2 -rw-> t1 (t1's write made row 1 match the
-- DELETE's predicate after t2 had evaluated it: a predicate anti-dependency) and
-- t1 -wr-> t2 (row 1): a G-single cycle with a predicate anti-dependency. That is what
-- PostgreSQL's READ COMMITTED does. InnoDB's DELETE, at every level, waits for the lock on
-- row 1 too and then reads its latest committed version (20), so it deletes row 1: the run
-- is t1 then t2, no anomaly (semi-consistent reads, which skip a locked row whose last
-- committed version does not match, are InnoDB's for UPDATE only). t2 reads nothing before
-- the DELETE (Hermitage's MySQL variants do, which makes their anomaly an item one), so that
-- no item read makes the anti-dependency.
/* init */ CREATE TABLE test (id INT PRIMARY KEY, value INT);
/* init */ INSERT INTO test (id, value) VALUES (1, 10), (2, 20);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t1 */ UPDATE test SET value = value + 10;
/* t2 */ DELETE FROM test WHERE value = 20;  -- waits for t1 where writes lock rows
/* t1 */ COMMIT;
/* t2 */ SELECT * FROM test WHERE value = 20;
/* t2 */ COMMIT;
