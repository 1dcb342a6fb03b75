-- id: mariadb-rc-semi-consistent-skip
-- title: READ COMMITTED: an UPDATE that skips another transaction's uncommitted row is shown by replaying each statement on the committed state
-- isolation: read-committed
-- The class of `txhunt fuzz --target mariadb --isolation read-committed --seed 15`, case 635
-- (a bug candidate before). t3's UPDATE skips t2's uncommitted row 1 without waiting
-- (semi-consistent read: its newest committed version does not exist) and changes nothing;
-- after t2, in commit order, it would move row 1 onto key 2: a duplicate key. The UPDATE has
-- an alias, so it has no locking-read variant (in case 635 that variant deadlocked: another
-- path); but every statement, run alone on the state committed when it started, answers as
-- in the run, and the changes in commit order give the final state: InnoDB's READ
-- COMMITTED, statement by statement.
/* init */ CREATE TABLE t (k BIGINT NOT NULL, PRIMARY KEY (k));
/* init */ INSERT INTO t (k) VALUES (-2), (2);
/* t3 */ BEGIN;
/* t2 */ BEGIN;
/* t2 */ INSERT INTO t (k) VALUES (1);  -- expect: affected 1
/* t3 */ UPDATE t AS x SET x.k = 2 WHERE x.k >= -1;  -- expect: affected 0
/* t2 */ COMMIT;
/* t3 */ DELETE FROM t;  -- expect: affected 3
/* t3 */ COMMIT;
-- expect final: t = []
