-- id: hermitage-g2-item
-- title: Write skew (G2-item): two transactions read both rows and each updates a different one
-- link: https://github.com/ept/hermitage
-- adya: G2-item, refinement write-skew, when not prevented
-- Each transaction reads rows 1 and 2 by key; t1 then updates row 1, t2 row 2, and both
-- commit. Each read a version the other replaced (t1 -rw-> t2 on row 2, t2 -rw-> t1 on
-- row 1): a cycle of two item anti-dependencies, G2-item, which snapshot isolation allows.
/* init */ CREATE TABLE test (id INT PRIMARY KEY, value INT);
/* init */ INSERT INTO test (id, value) VALUES (1, 10), (2, 20);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t1 */ SELECT * FROM test WHERE id IN (1, 2);
/* t2 */ SELECT * FROM test WHERE id IN (1, 2);
/* t1 */ UPDATE test SET value = 11 WHERE id = 1;
/* t2 */ UPDATE test SET value = 21 WHERE id = 2;
/* t1 */ COMMIT;
/* t2 */ COMMIT;
