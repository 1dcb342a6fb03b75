-- id: hermitage-g1c
-- title: Circular information flow (G1c): each transaction reads the row the other one is writing
-- link: https://github.com/ept/hermitage
-- adya: G1c (a cycle of wr edges) when not prevented
-- t1 writes row 1 and t2 row 2; then each reads the other's row before either commits. With
-- dirty reads each sees the other's uncommitted write: t2 -wr-> t1 and t1 -wr-> t2, G1c.
-- Where reads see only committed data and both commit, each reads the initial version of the
-- row the other overwrites: t1 -rw-> t2 and t2 -rw-> t1, a write skew (G2-item), which
-- READ COMMITTED and snapshot isolation allow; Hermitage's verdict is about G1c only.
/* init */ CREATE TABLE test (id INT PRIMARY KEY, value INT);
/* init */ INSERT INTO test (id, value) VALUES (1, 10), (2, 20);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t1 */ UPDATE test SET value = 11 WHERE id = 1;
/* t2 */ UPDATE test SET value = 22 WHERE id = 2;
/* t1 */ SELECT * FROM test WHERE id = 2;
/* t2 */ SELECT * FROM test WHERE id = 1;
/* t1 */ COMMIT;
/* t2 */ COMMIT;
