-- id: hermitage-g2-two-edges
-- title: Anti-dependency cycle with two edges and a read-only transaction (Fekete et al.)
-- link: https://github.com/ept/hermitage
-- adya: G2-item when not prevented
-- The read-only anomaly of Fekete, O'Neil and O'Neil: t1 reads the table; t2 adds 5 to
-- row 2 and commits; t3 starts, reads the table (row 2 is 25) and commits; t1 then sets row 1
-- to 0 and commits. t1 -rw-> t2 (row 2), t2 -wr-> t3 (row 2), t3 -rw-> t1 (row 1): a cycle
-- with two anti-dependencies, both on rows read as items, so G2-item (Hermitage files it
-- under G2, which G2-item implies). Each pair of the three is serializable; the three are
-- not: t3 saw t2 but not t1, while t1 must precede t2.
/* init */ CREATE TABLE test (id INT PRIMARY KEY, value INT);
/* init */ INSERT INTO test (id, value) VALUES (1, 10), (2, 20);
/* t1 */ BEGIN;
/* t1 */ SELECT * FROM test;
/* t2 */ BEGIN;
/* t2 */ UPDATE test SET value = value + 5 WHERE id = 2;
/* t2 */ COMMIT;
/* t3 */ BEGIN;
/* t3 */ SELECT * FROM test;
/* t3 */ COMMIT;
/* t1 */ UPDATE test SET value = 0 WHERE id = 1;
/* t1 */ COMMIT;
