-- id: mariadb-rc-waiters-resumed-together
-- title: READ COMMITTED: two UPDATEs waited for one lock and resumed together; the one that took it first committed at once (autocommit) and the other then matched nothing
-- isolation: read-committed
-- After case 3249 of `txhunt fuzz --target mariadb --isolation all --seed 7006` (a bug
-- candidate, 1 replay in 3). t1's autocommit UPDATE and t2's UPDATE wait for t3's locks;
-- t3 rolls back; t1, first in the queue, sets a = 2 and commits, and t2's UPDATE, let go on,
-- matches nothing. Both answers reach txhunt at one check, in either order. t1 then inserts
-- (10, 2) behind t2's second UPDATE (no gap lock) before t2 commits: no serial order gives
-- the final state. Replayed with t2's first UPDATE where it completed, the run is READ
-- COMMITTED's only if t1's UPDATE completed before it.
/* init */ CREATE TABLE t (k INT PRIMARY KEY, a INT);
/* init */ INSERT INTO t VALUES (1, 1), (2, 1);
/* t3 */ BEGIN;
/* t3 */ UPDATE t SET a = 0 WHERE a = 1;  -- expect: affected 2
/* t1 */ UPDATE t SET a = 2 WHERE a = 1;  -- expect: blocked then affected 2
/* t2 */ BEGIN;
/* t2 */ UPDATE t SET a = 3 WHERE a = 1;  -- expect: blocked then affected 0
/* t3 */ ROLLBACK;
/* t2 */ UPDATE t SET a = 5 WHERE a = 2;  -- expect: affected 2
/* t1 */ INSERT INTO t VALUES (10, 2);  -- expect: affected 1
/* t2 */ COMMIT;
-- expect final: t = [(1, 5), (2, 5), (10, 2)]
