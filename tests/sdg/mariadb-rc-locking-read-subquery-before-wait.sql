-- id: mariadb-rc-locking-read-subquery-before-wait
-- title: A locking read that waited reads its subquery as it was before the wait and its own rows after
-- isolation: read-committed
-- From `txhunt fuzz --target mariadb --isolation read-committed --seed 15`, case 3370 (a bug
-- candidate before; reduced by txhunt to 13 statements, then by hand). t3's locking read
-- waits for row 'f', which t2 deletes; t2 then inserts '' into t2 and commits. The locking
-- read's subquery is a consistent read without locks (MySQL 8.0 §17.7.2.4): it read t2 before
-- the wait, empty, so the read returns nothing, while every sequential order that lets it
-- read row '' of t after t2's commit also lets its subquery see t2's ''. InnoDB's unlocked
-- subquery reads of a statement that waited explain it: permissible.
/* init */ CREATE TABLE t (k VARCHAR(1) NOT NULL, PRIMARY KEY (k));
/* init */ CREATE TABLE t2 (v VARCHAR(1));
/* init */ INSERT INTO t VALUES (''), ('f');
/* t2 */ BEGIN;
/* t2 */ DELETE FROM t WHERE k = 'f';  -- expect: affected 1
/* t3 */ SELECT * FROM t WHERE k IN (SELECT v FROM t2) LOCK IN SHARE MODE;  -- expect: blocked then rows []
/* t2 */ INSERT INTO t2 VALUES ('');  -- expect: affected 1
/* t2 */ COMMIT;
