-- id: MDEV-28027
-- title: Rand behaviour is not correct
-- link: https://jira.mariadb.org/browse/MDEV-28027
-- dbms: MariaDB 10.8.3
-- isolation: read-uncommitted, read-committed, repeatable-read, serializable
-- source: ReplBug thesis (paper 003), replbug/MDEV-28027.txt scenario_0
-- description: Mismatch between MySQL and MariaDB: in Mariadb, RAND('t') is true only if >= 0.5. Record 1 is skipped.
-- bug-type: Incorrect query result; levels where it manifested (correlation sheet): read-uncommitted, read-committed, repeatable-read, serializable
-- buggy: MariaDB treated the non-zero double RAND('t') as false when it was < 0.5, so row 1 was skipped (MySQL returns all rows).
/* init */ CREATE TABLE t(c1 INT);
/* init */ INSERT INTO t(c1) VALUES (3), (2), (1);
/* t1 */ BEGIN;
/* t1 */ SELECT * FROM t WHERE RAND('t');  -- expect: rows [3, 2, 1]
/* t1 */ COMMIT;
