-- id: hermitage-otv
-- title: Observed transaction vanishes (OTV): a reader sees part of a transaction, then an older version of its other row
-- link: https://github.com/ept/hermitage
-- adya: G-single (read skew) when not prevented
-- t1 writes both rows and commits; t2 overwrites both (row 1 after waiting for t1); t3 reads
-- the table after t2's first write and again after its second. With dirty reads t3's first
-- read returns t2's row 1 and t1's row 2, a version t2 is about to replace: t2 -wr-> t3 on
-- row 1 and t3 -rw-> t2 on row 2, a G-single cycle (t2's effects are seen, then missed).
-- OTV itself (Bailis et al.'s monotonic atomic view) is not one of Adya's classes; in a
-- dependency graph it is this G-single cycle. t3 reads nothing after t2 commits (Hermitage's
-- read-uncommitted variant): a re-read then would be a non-repeatable read, G-single too,
-- which READ COMMITTED allows, and would hide the difference between the levels.
/* init */ CREATE TABLE test (id INT PRIMARY KEY, value INT);
/* init */ INSERT INTO test (id, value) VALUES (1, 10), (2, 20);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t3 */ BEGIN;
/* t1 */ UPDATE test SET value = 11 WHERE id = 1;
/* t1 */ UPDATE test SET value = 19 WHERE id = 2;
/* t2 */ UPDATE test SET value = 12 WHERE id = 1;  -- waits for t1 where writes lock rows
/* t1 */ COMMIT;
/* t3 */ SELECT * FROM test;
/* t2 */ UPDATE test SET value = 18 WHERE id = 2;
/* t3 */ SELECT * FROM test;
/* t2 */ COMMIT;
/* t3 */ COMMIT;
