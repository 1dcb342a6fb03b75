-- id: hermitage-g-single-dependencies
-- title: Read skew over predicates: a second predicate read sees a change the first one did not
-- link: https://github.com/ept/hermitage
-- adya: G-single when not prevented
-- t1 reads the multiples of 5 (both rows); t2 changes row 1 from 10 to 12 and commits; t1
-- reads the multiples of 3. A read that sees t2's commit returns row 1 (12): t1 read row 1
-- before t2's write (t1 -rw-> t2, here an item anti-dependency, since the first predicate
-- returned row 1) and after it (t2 -wr-> t1): G-single. A snapshot read returns nothing.
/* init */ CREATE TABLE test (id INT PRIMARY KEY, value INT);
/* init */ INSERT INTO test (id, value) VALUES (1, 10), (2, 20);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t1 */ SELECT * FROM test WHERE value % 5 = 0;
/* t2 */ UPDATE test SET value = 12 WHERE value = 10;
/* t2 */ COMMIT;
/* t1 */ SELECT * FROM test WHERE value % 3 = 0;
/* t1 */ COMMIT;
