-- id: mariadb-rc-failed-update-unwritten-row
-- title: A statement that fails in the sequential order is not placed by rows no statement wrote
-- isolation: read-committed
-- From `txhunt fuzz --target mariadb --isolation read-committed --seed 15` (case 635). t3's
-- UPDATE skipped t2's uncommitted row 657 (semi-consistent read) and matched 990 only. In the
-- sequential order after t2's INSERT it matches 657 too and fails on the duplicate key 990; a
-- failed statement reports no rows, so the rows it did not observe are placement candidates —
-- but row -650, which no statement wrote and its predicate does not match, is the same
-- wherever the UPDATE goes. Taken for one, it was reported as "saw no version of row -650".
/* init */ CREATE TABLE t0 (a0 TEXT, a1 BIGINT NOT NULL CHECK ((a1 >= -1)), a2 DOUBLE, a3 DOUBLE UNIQUE CHECK ((a3 >= -6)), a4 BIGINT NOT NULL CHECK ((a4 >= -45)), a5 VARCHAR(10), PRIMARY KEY (a1, a4));
/* init */ CREATE TABLE t1 (b0 BIGINT NOT NULL, PRIMARY KEY (b0));
/* init */ CREATE INDEX i1 ON t1 (b0);
/* init */ INSERT INTO t0 (a0, a1, a2, a3, a4, a5) VALUES ('e', 555, 10.0, 12.25, 933, NULL), ('Yb', 309, 20.0, 8.75, 99, 'YbXY'), (NULL, 892, NULL, 15.75, 769, NULL), ('XaaY', 217, 5.25, NULL, 237, 'Xdb'), ('aY', 91, 18.5, NULL, 789, 'XXYa'), ('', 401, 7.25, 18.0, 438, 'cX'), ('a', 806, 18.5, 1.0, 733, 'be'), ('YX', 776, 2.75, 4.75, 725, ''), ('dXYX', 476, -8.0, 7.0, 646, '');
/* init */ INSERT INTO t1 (b0) VALUES (-650), (-991), (990);
/* t3 */ BEGIN;
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t4 */ SELECT a0, COUNT(*), MIN(a5) FROM t0 WHERE ((a4 + 3) > -774) GROUP BY a0;
/* t2 */ INSERT IGNORE INTO t1 (b0) VALUES (657), (-991);
/* t3 */ UPDATE t1 SET b0 = 990 WHERE ((b0 BETWEEN -646 AND 990) AND ((b0 IS NULL) OR ((b0 + 2) >= -991)));
/* t2 */ SAVEPOINT sp1;
/* t1 */ UPDATE t1 SET b0 = 990 WHERE (ABS(b0) <> 433);
/* t3 */ SELECT * FROM t1 JOIN t0 ON (b0 = a1) WHERE (b0 IS NULL);
/* t1 */ SELECT b0 FROM t1 WHERE (b0 IS NOT NULL) LOCK IN SHARE MODE;
/* t3 */ SELECT b0 FROM t1 WHERE (b0 IS NOT NULL) LOCK IN SHARE MODE;
/* t2 */ INSERT INTO t0 (a0, a1, a3, a4, a5) VALUES ('bdY', -80, 7.0, 789, 'deX'), ('Xa', 91, 12.25, 933, 'be');
/* t2 */ ROLLBACK TO SAVEPOINT sp1;
/* t2 */ COMMIT;
/* t3 */ SELECT b0 FROM t1 WHERE (b0 BETWEEN -684 AND 990);
/* t3 */ DELETE FROM t1 WHERE (b0 IN (446, -991, 834));
/* t3 */ COMMIT;
/* t1 */ SELECT * FROM t0 WHERE (a2 = -8.75);
/* t1 */ UPDATE t0 SET a3 = 3.75 WHERE (a0 IN (''));
/* t1 */ UPDATE t0 SET a3 = (t0.a3 + 2) WHERE (a1 >= -523);
/* t1 */ ROLLBACK;
