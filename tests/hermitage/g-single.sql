-- id: hermitage-g-single
-- title: Read skew (G-single): a transaction reads one row before and the other after a concurrent change to both
-- link: https://github.com/ept/hermitage
-- adya: G-single, refinement read-skew, when not prevented
-- t1 reads row 1 (10); t2 rewrites both rows (12 and 18) and commits; t1 then reads row 2.
-- If it returns 18, t1 saw row 1 before t2 (t1 -rw-> t2 on row 1) and row 2 after it
-- (t2 -wr-> t1 on row 2): a G-single cycle over two rows, read skew. A snapshot, or a read
-- lock that makes t2 wait, shows t1 the initial 20.
/* init */ CREATE TABLE test (id INT PRIMARY KEY, value INT);
/* init */ INSERT INTO test (id, value) VALUES (1, 10), (2, 20);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t1 */ SELECT * FROM test WHERE id = 1;
/* t2 */ SELECT * FROM test WHERE id = 1;
/* t2 */ SELECT * FROM test WHERE id = 2;
/* t2 */ UPDATE test SET value = 12 WHERE id = 1;
/* t2 */ UPDATE test SET value = 18 WHERE id = 2;
/* t2 */ COMMIT;
/* t1 */ SELECT * FROM test WHERE id = 2;
/* t1 */ COMMIT;
