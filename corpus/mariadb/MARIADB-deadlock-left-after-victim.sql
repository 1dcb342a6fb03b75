-- id: mariadb-deadlock-left-after-victim
-- title: When InnoDB breaks a three-transaction deadlock by rolling back a waiter, the two-transaction deadlock left behind must be detected too, not left waiting for innodb_lock_wait_timeout
-- dbms: MariaDB 10.11.19 (Debian 12's mariadb-server)
-- isolation: repeatable-read, serializable
-- oracles: explicit
-- buggy: at REPEATABLE READ and SERIALIZABLE (not at READ COMMITTED or READ UNCOMMITTED, which take no gap locks here), t2's UPDATE got the deadlock error at once, then t1's INSERT and t4's INSERT both waited, each for a lock the other held (information_schema.INNODB_LOCK_WAITS listed the cycle), until innodb_lock_wait_timeout ended both with error 1205 after 50 s. A correct detector rolls one of them back with error 1213 at once.
-- source: found by txhunt (fuzz --target mariadb --seed 3 --oracle explicit,dsg, case fuzz-3-3944, explicit hang), reduced by txhunt reduce then by hand; checked with an independent client (PyMySQL, one thread per session)
-- Comment: t4's UPDATE reads through index v and locks row 24 alone (no gap). t2's full-scan UPDATE then waits
-- for a next-key lock on row 24, behind t4. t4's FOR UPDATE scan gets its next-key locks. t1 holds the
-- supremum of the empty t1, and its INSERT of key 10 into the gap before 24 waits: InnoDB records it as waiting
-- for t2, whose waiting next-key lock covers that gap. t4's INSERT into t1 then waits for t1. The detector
-- finds the cycle t4 → t1 → t2 → t4 (SHOW ENGINE INNODB STATUS, LATEST DETECTED DEADLOCK) and rolls back
-- t2. With t2 gone, t1 waits for t4's next-key lock and t4 waits for t1: a deadlock no later check finds.
-- Which of t1 and t4 the detector should roll back is its choice, so neither has an expectation: the
-- finding is txhunt's `explicit hang` (no end and no lock-wait error in 10 s).
/* init */ CREATE TABLE t0 (k INT PRIMARY KEY, v INT, w INT, KEY (v)) ENGINE = InnoDB;
/* init */ CREATE TABLE t1 (v INT) ENGINE = InnoDB;
/* init */ INSERT INTO t0 VALUES (24, 0, 0);
/* t4 */ BEGIN;
/* t4 */ UPDATE t0 SET w = 1 WHERE v <> 22;      -- expect: affected 1
/* t2 */ UPDATE t0 SET v = 2;                    -- expect: blocked
/* t1 */ BEGIN;
/* t1 */ UPDATE t1 SET v = 3;                    -- expect: affected 0
/* t4 */ SELECT * FROM t0 FOR UPDATE;            -- expect: rows [(24, 0, 1)]
/* t1 */ INSERT INTO t0 VALUES (10, 3, 3);
/* t4 */ INSERT INTO t1 VALUES (4);
/* t4 */ COMMIT;
/* t1 */ COMMIT;
