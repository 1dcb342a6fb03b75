-- id: mariadb-ru-failed-rollback-to-savepoint
-- title: READ UNCOMMITTED: a ROLLBACK TO a savepoint never set fails and changes nothing; t4 inserts into the range t3's UPDATE covered (no gap lock)
-- isolation: read-uncommitted
-- txhunt's reduction of case 5058 of `txhunt fuzz --target mariadb --isolation all --seed 7013`
-- (a bug candidate there). No serial order leaves 5 (t4 before t3 adds 3 to it): a missing
-- gap lock. The replays stopped at the failed ROLLBACK TO ("a ROLLBACK TO names a savepoint
-- its transaction did not set"); a savepoint statement that failed changed nothing.
/* init */ CREATE TABLE t (k DECIMAL(4,2));
/* t3 */ BEGIN;
/* t3 */ UPDATE t SET k = t.k + 3;  -- expect: affected 0
/* t4 */ INSERT INTO t (k) VALUES (5) ON DUPLICATE KEY UPDATE k = (t.k + 1);  -- expect: affected 1
/* t3 */ ROLLBACK TO SAVEPOINT sp1;  -- expect: error
/* t3 */ COMMIT;
-- expect final: t = [(5.00)]
