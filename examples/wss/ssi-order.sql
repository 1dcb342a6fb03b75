-- id: ssi-order
-- title: A reader that commits last is serialized first: SSI's order is not commit order
-- dbms: PostgreSQL (serializable snapshot isolation)
-- isolation: serializable
-- t1 counts t's rows into u from its snapshot; t2 inserts a row and commits before t1 does.
-- The result is that of the serial order t1 → t2 (t1 saw no row of t2), not of commit order
-- t2 → t1; SSI promises some serial order, so WSS's commit-order check fires on a correct run.
/* init */ CREATE TABLE t(k INT PRIMARY KEY);
/* init */ CREATE TABLE u(n INT);
/* init */ INSERT INTO t VALUES (1);
/* init */ INSERT INTO u VALUES (0);
/* t1 */ BEGIN;
/* t1 */ UPDATE u SET n = (SELECT COUNT(*) FROM t);
/* t2 */ INSERT INTO t VALUES (2);
/* t1 */ COMMIT;
