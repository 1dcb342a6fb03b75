-- id: mariadb-rc-locking-read-misses-moved-key
-- title: A locking read that waited misses the row another transaction moved into the range it had scanned
-- Reduced from `txhunt fuzz --target mariadb --duration 90s --seed 21`, case 2083 (a bug
-- candidate before). t5's scan waits at k = 1 (t2 locked it). t4 then moves row 2 to k = -1:
-- an UPDATE of a key deletes the old record, ahead of the scan, and inserts a new one into
-- the gap the scan had passed, which READ COMMITTED does not lock. Resumed, the scan finds 2
-- deleted and never sees -1. At REPEATABLE READ t5's gap lock makes t4 wait instead.
-- Used by crates/txhunt-oracle/tests/sdg.rs.
/* init */ CREATE TABLE t (k BIGINT NOT NULL, PRIMARY KEY (k));
/* init */ INSERT INTO t (k) VALUES (1), (2);
/* t2 */ BEGIN;
/* t2 */ SELECT * FROM t WHERE NOT k <> 1 FOR UPDATE;
/* t5 */ SELECT * FROM t LOCK IN SHARE MODE;
/* t4 */ UPDATE t SET k = -1 WHERE k >= 2;
/* t2 */ COMMIT;
