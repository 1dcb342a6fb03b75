-- id: mariadb-ru-intermediate-read
-- title: READ UNCOMMITTED: an UPDATE whose subquery read another transaction's intermediate state is shown by replaying each statement on the newest versions
-- isolation: read-uncommitted
-- The class of `txhunt fuzz --target mariadb --isolation read-uncommitted --seed 16`, case
-- 862 (a bug candidate before). t1's UPDATE reads t2's uncommitted DELETE in its subquery:
-- `u` is empty for it, so it changes nothing; t2 then inserts a row that matches again and
-- commits. No serial order has `u` empty when t1 runs. At READ COMMITTED the case violates
-- WSS too (t1's row 30 falls to t2's DELETE in commit order), and at REPEATABLE READ it
-- deadlocks (t1's subquery waits for t2's DELETE, t2's UPDATE for t1's row 9): only the
-- statement-by-statement replay on the newest versions, committed or not, shows READ
-- UNCOMMITTED at work.
/* init */ CREATE TABLE t (k INT NOT NULL, v INT NOT NULL, PRIMARY KEY (k));
/* init */ CREATE TABLE u (k INT NOT NULL, w INT NOT NULL, PRIMARY KEY (k));
/* init */ INSERT INTO t (k, v) VALUES (8, 0), (9, 0);
/* init */ INSERT INTO u (k, w) VALUES (3, 8);
/* t2 */ BEGIN;
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET v = 5 WHERE k = 9;  -- expect: affected 1
/* t2 */ DELETE FROM u;  -- expect: affected 1
/* t1 */ UPDATE t SET v = 1 WHERE k IN (SELECT w FROM u);  -- expect: affected 0
/* t1 */ INSERT INTO u (k, w) VALUES (30, 0);  -- expect: affected 1
/* t1 */ COMMIT;
/* t2 */ INSERT INTO u (k, w) VALUES (6, 8);  -- expect: affected 1
/* t2 */ UPDATE t SET v = 6 WHERE k = 9;  -- expect: affected 1
/* t2 */ COMMIT;
-- expect final: t = [(8, 0), (9, 6)]
-- expect final: u = [(6, 8), (30, 0)]
