-- id: hermitage-p4
-- title: Lost update (P4): two transactions read a row and both write it, the later one over the earlier
-- link: https://github.com/ept/hermitage
-- adya: G-single, refinement lost-update, when not prevented
-- Both read row 1 (10); t1 writes 11 and commits; t2, which waited, writes 11 over t1's
-- version. t2 read the version t1 replaced (t2 -rw-> t1) and overwrote t1's (t1 -ww-> t2),
-- both on row 1: a two-edge G-single cycle, the lost update. Snapshot isolation refuses t2's
-- write; InnoDB's SERIALIZABLE read locks make the two updates deadlock.
/* init */ CREATE TABLE test (id INT PRIMARY KEY, value INT);
/* init */ INSERT INTO test (id, value) VALUES (1, 10), (2, 20);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t1 */ SELECT * FROM test WHERE id = 1;
/* t2 */ SELECT * FROM test WHERE id = 1;
/* t1 */ UPDATE test SET value = 11 WHERE id = 1;
/* t2 */ UPDATE test SET value = 11 WHERE id = 1;  -- waits for t1 where writes lock rows
/* t1 */ COMMIT;
/* t2 */ COMMIT;
