-- id: mariadb-si-secondary-index-delete
-- title: With innodb_snapshot_isolation=ON an UPDATE through a secondary index silently skips a row deleted after its read view; through the primary key it is refused
-- dbms: MariaDB 10.11.19
-- isolation: repeatable-read
-- targets: mariadb?innodb_snapshot_isolation=ON
-- Found by `txhunt fuzz --target 'mariadb?innodb_snapshot_isolation=ON' --isolation
-- repeatable-read --seed 7` (cases 238 and 1116, both reduced to this), confirmed with two
-- `mariadb` command-line clients on a private 10.11.19 server. t1's read view shows row k = 1;
-- t2 deletes it and commits; t1's UPDATE finds the row through index i and, instead of failing
-- with error 1020 as snapshot isolation requires (and as the same UPDATE through the primary
-- key does: `UPDATE t SET v = 11 WHERE k = 1`), changes nothing and t1 commits: t1 read the
-- row t2 deleted (rw) and its write missed it because of t2 (wr), a G-single cycle that
-- snapshot isolation forbids. The expectations state the correct behaviour.
/* init */ CREATE TABLE t (k INT PRIMARY KEY, v INT);
/* init */ CREATE INDEX i ON t (v);
/* init */ INSERT INTO t VALUES (1, 10);
/* t1 */ BEGIN;
/* t1 */ SELECT * FROM t;                     -- expect: rows [(1, 10)]
/* t2 */ DELETE FROM t WHERE k = 1;           -- expect: affected 1
/* t1 */ UPDATE t SET v = 11 WHERE v = 10;    -- expect: error serialization
/* t1 */ COMMIT;
-- expect final: t = []
