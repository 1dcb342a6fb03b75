-- id: hermitage-pmp
-- title: Predicate-many-preceders (PMP): a predicate read misses a row that a later read of an overlapping predicate finds
-- link: https://github.com/ept/hermitage
-- adya: G-single with a predicate anti-dependency when not prevented
-- t1 asks for value = 30 (no row), t2 inserts (3, 30) and commits, t1 asks for multiples of
-- 3. If the second read returns the new row, t1 both precedes t2 (its first predicate did
-- not see the insert: t1 -rw-> t2, a predicate anti-dependency, as no row t1 read as an item
-- was overwritten) and follows it (t2 -wr-> t1 on row 3): a G-single cycle whose one
-- anti-dependency is a predicate one (so G2 but not G2-item). Snapshot reads return no row
-- the second time and show no cycle.
/* init */ CREATE TABLE test (id INT PRIMARY KEY, value INT);
/* init */ INSERT INTO test (id, value) VALUES (1, 10), (2, 20);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t1 */ SELECT * FROM test WHERE value = 30;
/* t2 */ INSERT INTO test (id, value) VALUES (3, 30);
/* t2 */ COMMIT;
/* t1 */ SELECT * FROM test WHERE value % 3 = 0;
/* t1 */ COMMIT;
