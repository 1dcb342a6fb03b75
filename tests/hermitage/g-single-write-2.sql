-- id: hermitage-g-single-write-2
-- title: Read skew on a write predicate, interleaved: a DELETE runs between a concurrent transaction's two updates
-- link: https://github.com/ept/hermitage
-- adya: G-single when not prevented
-- t1 reads row 1 (10); t2 reads the table and sets row 1 to 12; t1 deletes the rows whose
-- value is 20 (row 2, which t2 has not changed yet); t2 then sets row 2 to 18. In
-- Hermitage's text t1 ends with ROLLBACK (on the engines it was written for, t1 had been
-- refused by then, or was rolled back by choice); a transaction that rolls back is in no
-- dependency graph, so that text cannot show anything to this oracle. Here t1 commits, the
-- path on which the anomaly can happen.
-- Where t1's DELETE goes through at once and t2's UPDATE of row 2 then finds the row gone
-- (PostgreSQL's READ COMMITTED): t2 read row 2 before t1 deleted it (t2 -rw-> t1), and t2's
-- UPDATE matched no row because t1 had deleted it (t1 -wr-> t2, a predicate
-- read-dependency): G-single. Without that predicate edge the graph holds t1 -rw-> t2 on
-- row 1 and t2 -rw-> t1 on row 2, a G2-item write skew.
-- InnoDB (READ UNCOMMITTED, READ COMMITTED, REPEATABLE READ) makes t1's DELETE wait for t2's
-- lock on row 1 and then evaluate t2's committed versions (12 and 18: nothing to delete),
-- while t1's first read saw row 1 before t2: t1 -rw-> t2 on row 1 and t2 -wr-> t1 through
-- the DELETE's predicate, G-single again (and nothing at all without the predicate edge).
/* init */ CREATE TABLE test (id INT PRIMARY KEY, value INT);
/* init */ INSERT INTO test (id, value) VALUES (1, 10), (2, 20);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t1 */ SELECT * FROM test WHERE id = 1;
/* t2 */ SELECT * FROM test;
/* t2 */ UPDATE test SET value = 12 WHERE id = 1;
/* t1 */ DELETE FROM test WHERE value = 20;
/* t2 */ UPDATE test SET value = 18 WHERE id = 2;
/* t1 */ COMMIT;
/* t2 */ COMMIT;
