-- id: sdg-fig1-motivating
-- title: TxCheck Figure 1: the motivating example (MySQL bug #108528 at repeatable read)
-- link: https://bugs.mysql.com/bug.php?id=108528
-- isolation: repeatable-read
-- sdg-edge: t2.4 -rw-> t1.2
-- sdg-order: t1.3 → t2.2 → t2.3 → t2.4 → t1.2
-- sdg-permissible: mariadb latest-committed-writes
-- The paper's T0 is t1 and its T1 is t2; its listing is elided, so the rows are ours, shaped
-- as the text describes: two tables, T0.S1 updates t0, T0.S2 reads t1, T1.S1 reads t0, and
-- T1.S2 and T1.S3 use the same predicate over min() of t0, T1.S3 right after T1.S2. The
-- paper's sorted order is [T0.S2, T1.S1, T1.S2, T1.S3, T0.S1] (its Figure 9). MySQL 8.0.23
-- let T1.S3 match by t0's committed update where T1.S2 did not, so T1.S3 updated two rows and
-- T1.S2 returned one. A DBMS without the bug returns one row and updates it, as PostgreSQL
-- does. MariaDB 10.11 updates both rows as MySQL did, and documents it: at REPEATABLE READ a
-- write's subqueries read the newest committed versions (innodb_snapshot_isolation OFF, its
-- default; ON refuses the UPDATE with error 1020). The oracle finds the difference there and
-- names that behaviour, shown by the UPDATE placed after t1's statements: permissible.
/* init */ CREATE TABLE t0 (pkey INT PRIMARY KEY, vkey INT);
/* init */ INSERT INTO t0 VALUES (1, 20), (2, 56);
/* init */ CREATE TABLE t1 (pkey INT PRIMARY KEY, vkey INT, c INT);
/* init */ INSERT INTO t1 VALUES (1, 43, 8), (2, 57, 53);
/* t1 */ BEGIN;
/* t1 */ UPDATE t0 SET vkey = 162;                              -- expect: affected 2
/* t1 */ SELECT pkey, vkey, c FROM t1 ORDER BY pkey;            -- expect: rows [(1, 43, 8), (2, 57, 53)]
/* t2 */ BEGIN;
/* t2 */ SELECT pkey, vkey FROM t0 ORDER BY pkey;               -- expect: rows [(1, 20), (2, 56)]
/* t1 */ COMMIT;
/* t2 */ SELECT pkey, vkey, c FROM t1 WHERE c <= (SELECT MIN(vkey) FROM t0);  -- expect: rows [(1, 43, 8)]
/* t2 */ UPDATE t1 SET vkey = 63 WHERE c <= (SELECT MIN(vkey) FROM t0);
/* t2 */ COMMIT;
