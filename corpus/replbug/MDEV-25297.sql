-- id: MDEV-25297
-- title: A rollback makes the database crash.
-- link: https://jira.mariadb.org/browse/MDEV-25297
-- dbms: MariaDB 356c1496-debug
-- isolation: read-uncommitted, read-committed, repeatable-read, serializable
-- source: ReplBug thesis (paper 003), replbug/MDEV-25297.txt scenario_0
-- description: A rollback makes the database crash.
-- bug-type: Crash; levels where it manifested (correlation sheet): read-uncommitted, read-committed, repeatable-read, serializable
-- Crash bug: the only expectation is the liveness probe at the end.
/* init */ CREATE TABLE t1(id INT PRIMARY KEY, a INT, b CHAR(1), UNIQUE KEY u(a,b)) ENGINE=InnoDB;
/* t1 */ BEGIN;
/* t1 */ SET sql_mode='';
/* t1 */ SET unique_checks=0;
/* t1 */ SET foreign_key_checks=0;
/* t1 */ CREATE TABLE ti (b INT,c INT,e INT,id INT,KEY (b),KEY (e),PRIMARY KEY(id));
/* t1 */ INSERT INTO ti VALUES(0,0,0,0);
/* t1 */ ALTER TABLE ti CHANGE COLUMN c c BINARY (1);
/* t1 */ XA START 'a';
/* t1 */ CREATE TEMPORARY TABLE t(a INT);
/* t1 */ INSERT INTO t VALUES(1);
/* t1 */ SAVEPOINT a3;
/* t1 */ CREATE OR REPLACE TEMPORARY TABLE t (a INT,b INT);
/* t1 */ INSERT INTO t VALUES(0,0);
/* t1 */ INSERT INTO ti VALUES(0,0,0,0);
/* t1 */ ROLLBACK TO SAVEPOINT a3;
/* t1 */ COMMIT;
-- Liveness probe added by the corpus (not part of the PoC): after a crash this fails.
/* t2 */ SELECT 1;  -- expect: rows [1]
