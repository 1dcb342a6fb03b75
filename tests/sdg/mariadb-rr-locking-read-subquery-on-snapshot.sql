-- id: mariadb-rr-locking-read-subquery-on-snapshot
-- title: At REPEATABLE READ a locking read that waited reads its subquery on its snapshot and its own rows after the wait
-- Reduced from `txhunt fuzz --target mariadb --duration 90s --seed 33`, case 2159 (a bug
-- candidate before). t5's locking read waits for t3's row 3, then for t1's row 5. Its
-- subquery is a consistent read (MySQL 8.0 §17.7.2.4: the locking clause does not lock a
-- nested subquery's rows), on the snapshot taken before t1 inserted v = 0; its own rows are
-- the newest committed ones, t1's update of row 5 included. No single moment gives (5, 1)
-- alone: documented, permissible.
-- Used by crates/txhunt-oracle/tests/sdg.rs.
/* init */ CREATE TABLE t (k TEXT NOT NULL, v TINYINT NOT NULL DEFAULT 0);
/* init */ CREATE TABLE t2 (w INT NOT NULL, x TINYINT, PRIMARY KEY (w));
/* init */ INSERT INTO t (k, v) VALUES ('b', 1);
/* init */ INSERT INTO t2 (w, x) VALUES (2, 0), (5, 0);
/* t3 */ BEGIN;
/* t3 */ REPLACE INTO t2 (w, x) VALUES (3, 0);
/* t1 */ BEGIN;
/* t5 */ SELECT * FROM t2 WHERE x IN (SELECT v FROM t) LOCK IN SHARE MODE;
/* t1 */ UPDATE t2 SET x = 1 WHERE w >= 4;
/* t3 */ ROLLBACK;
/* t1 */ INSERT INTO t (k) VALUES ('a');
/* t1 */ COMMIT;
