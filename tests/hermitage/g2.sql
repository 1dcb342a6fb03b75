-- id: hermitage-g2
-- title: Anti-dependency cycle over predicates (G2): each transaction inserts a row the other's predicate read did not see
-- link: https://github.com/ept/hermitage
-- adya: G2, refinement write-skew, when not prevented
-- Both read the multiples of 3 (none), then t1 inserts (3, 30) and t2 (4, 42), each a row
-- the other's predicate would have matched, and both commit. No row either read as an item
-- is written: the anti-dependencies t1 -rw-> t2 and t2 -rw-> t1 are predicate ones, so the
-- cycle is G2 but not G2-item. Snapshot isolation allows it (the inserted keys differ).
/* init */ CREATE TABLE test (id INT PRIMARY KEY, value INT);
/* init */ INSERT INTO test (id, value) VALUES (1, 10), (2, 20);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t1 */ SELECT * FROM test WHERE value % 3 = 0;
/* t2 */ SELECT * FROM test WHERE value % 3 = 0;
/* t1 */ INSERT INTO test (id, value) VALUES (3, 30);
/* t2 */ INSERT INTO test (id, value) VALUES (4, 42);
/* t1 */ COMMIT;
/* t2 */ COMMIT;
