-- id: hermitage-g1b
-- title: Intermediate read (G1b): a transaction reads a version its writer later replaced itself
-- link: https://github.com/ept/hermitage
-- adya: G1b when not prevented
-- t1 writes row 1 twice (101, then 11) and commits; t2 reads the table between the two
-- writes and again after the commit. With dirty reads t2's first read returns 101, a version
-- t1 never committed: G1b. Where t2 reads only committed data, its first read returns the
-- initial 10 and its second read, at READ COMMITTED, t1's 11: a non-repeatable read
-- (t2 -rw-> t1 on row 1, t1 -wr-> t2), which is G-single and allowed there; at the
-- snapshot levels both reads return 10.
/* init */ CREATE TABLE test (id INT PRIMARY KEY, value INT);
/* init */ INSERT INTO test (id, value) VALUES (1, 10), (2, 20);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t1 */ UPDATE test SET value = 101 WHERE id = 1;
/* t2 */ SELECT * FROM test;
/* t1 */ UPDATE test SET value = 11 WHERE id = 1;
/* t1 */ COMMIT;
/* t2 */ SELECT * FROM test;
/* t2 */ COMMIT;
