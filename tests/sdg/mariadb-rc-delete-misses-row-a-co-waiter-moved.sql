-- id: mariadb-rc-delete-misses-row-a-co-waiter-moved
-- title: READ COMMITTED: a DELETE that waited for a row another waiter then moved deletes nothing (MDEV-27992's class)
-- isolation: read-committed
-- Reduced from `txhunt fuzz --target mariadb --isolation all --seed 7002`, case 5315. t1's
-- failed UPDATE keeps its locks on both rows. t5's UPDATE and t2's DELETE wait for row 3;
-- once t1 commits, t5 moves 3 to 2 and commits; t2's DELETE, resumed at 3, finds it gone and
-- misses 2, behind its cursor: affected 0, although a row it matches existed throughout.
-- MDEV-27992 (still present at READ COMMITTED in MariaDB 10.11) is the same with the holder
-- moving the row; no documented behaviour lets a statement miss the row it waited for.
-- Used by crates/txhunt-oracle/tests/sdg.rs.
/* init */ CREATE TABLE t (k INT NOT NULL, PRIMARY KEY (k));
/* init */ INSERT INTO t (k) VALUES (-1), (3);
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET k = -1;  -- expect: error constraint
/* t5 */ UPDATE t SET k = 2 WHERE k IN (3);  -- expect: blocked then affected 1
/* t2 */ DELETE FROM t WHERE k > 1;  -- expect: blocked then affected 0
/* t1 */ COMMIT;
-- expect final: t = [(-1), (2)]
