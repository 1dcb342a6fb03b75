-- id: hermitage-g1a
-- title: Aborted read (G1a): a transaction reads a row another one wrote and then rolled back
-- link: https://github.com/ept/hermitage
-- adya: G1a when not prevented
-- t2 reads the whole table while t1's update of row 1 is pending, and again after t1 rolled
-- it back. Where dirty reads are possible (READ UNCOMMITTED), t2's first read returns t1's
-- version, which never became part of the database: G1a, and nothing else (t1 is in no DSG).
/* init */ CREATE TABLE test (id INT PRIMARY KEY, value INT);
/* init */ INSERT INTO test (id, value) VALUES (1, 10), (2, 20);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t1 */ UPDATE test SET value = 101 WHERE id = 1;
/* t2 */ SELECT * FROM test;
/* t1 */ ROLLBACK;
/* t2 */ SELECT * FROM test;
/* t2 */ COMMIT;
