-- id: mariadb-ru-intermediate-read-after-rollback-to-savepoint
-- title: READ UNCOMMITTED: an UPDATE whose subquery read another transaction's intermediate state, after that transaction rolled back to a savepoint, is shown by replaying each statement on the newest versions
-- isolation: read-uncommitted
-- `mariadb-ru-intermediate-read.sql` with savepoints (a bug candidate before: the replay on the
-- newest versions refused savepoints, and case 7597 of `txhunt fuzz --target mariadb
-- --isolation all --seed 7006` set one it never rolled back to). t2 deletes `u`'s row, sets
-- sp1, inserts (40, 9) and rolls back to sp1: t1's subquery then reads `u` empty (with the
-- row 40 still there it would match row 9). No serial order has `u` empty when t1 runs.
/* init */ CREATE TABLE t (k INT NOT NULL, v INT NOT NULL, PRIMARY KEY (k));
/* init */ CREATE TABLE u (k INT NOT NULL, w INT NOT NULL, PRIMARY KEY (k));
/* init */ INSERT INTO t (k, v) VALUES (8, 0), (9, 0);
/* init */ INSERT INTO u (k, w) VALUES (3, 8);
/* t2 */ BEGIN;
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET v = 5 WHERE k = 9;  -- expect: affected 1
/* t2 */ DELETE FROM u;  -- expect: affected 1
/* t2 */ SAVEPOINT sp1;
/* t2 */ INSERT INTO u (k, w) VALUES (40, 9);  -- expect: affected 1
/* t2 */ ROLLBACK TO SAVEPOINT sp1;
/* t2 */ RELEASE SAVEPOINT sp1;
/* t1 */ UPDATE t SET v = 1 WHERE k IN (SELECT w FROM u);  -- expect: affected 0
/* t1 */ INSERT INTO u (k, w) VALUES (30, 0);  -- expect: affected 1
/* t1 */ COMMIT;
/* t2 */ INSERT INTO u (k, w) VALUES (6, 8);  -- expect: affected 1
/* t2 */ UPDATE t SET v = 6 WHERE k = 9;  -- expect: affected 1
/* t2 */ COMMIT;
-- expect final: t = [(8, 0), (9, 6)]
-- expect final: u = [(6, 8), (30, 0)]
