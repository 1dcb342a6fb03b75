-- id: hermitage-g0
-- title: Write cycle (G0): two transactions each write both rows, the second waits on the first
-- link: https://github.com/ept/hermitage
-- adya: G0 (a cycle of ww edges) when not prevented
-- Hermitage's first test: t2's write of row 1 must not overwrite t1's uncommitted version
-- (the engines here make t2 wait for t1, or refuse it). A write cycle needs one row where
-- t2's version precedes t1's and another where it follows; here t2 writes row 2 only after
-- t1 has committed, so every engine yields t1 -ww-> t2 on both rows (or t2 aborted) and no
-- cycle. The test checks that the oracle sees the write dependencies and reports nothing.
/* init */ CREATE TABLE test (id INT PRIMARY KEY, value INT);
/* init */ INSERT INTO test (id, value) VALUES (1, 10), (2, 20);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t1 */ UPDATE test SET value = 11 WHERE id = 1;
/* t2 */ UPDATE test SET value = 12 WHERE id = 1;  -- waits for t1 where writes lock rows
/* t1 */ UPDATE test SET value = 21 WHERE id = 2;
/* t1 */ COMMIT;
/* t2 */ UPDATE test SET value = 22 WHERE id = 2;
/* t2 */ COMMIT;
