-- id: writecheck-listing-5
-- title: Semi-consistent read: at read-committed T2's UPDATE skips the row T1 moved into its range
-- link: https://doi.org/10.14778/3712221.3712229
-- dbms: MySQL 8.0 / MariaDB 10.11
-- isolation: read-committed
-- Paper 001 Listing 5: a WSS violation the MySQL and MariaDB manuals call expected (InnoDB
-- evaluates an UPDATE's WHERE on the latest committed version and locks only matching rows).
/* init */ CREATE TABLE t(c1 INT, c2 VARCHAR(5));
/* init */ INSERT INTO t(c1, c2) VALUES (1, ''), (5, '');
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET c1 = 5, c2 = 'tx1' WHERE c1 = 1;   -- expect: affected 1
/* t2 */ BEGIN;
/* t2 */ UPDATE t SET c1 = 1, c2 = 'tx2' WHERE c1 = 5;   -- expect: affected 1 -- skips the row t1 changed without waiting
/* t1 */ COMMIT;
/* t2 */ COMMIT;
-- expect final: t = [(5, 'tx1'), (1, 'tx2')]
