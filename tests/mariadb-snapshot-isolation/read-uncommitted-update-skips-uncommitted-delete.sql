-- id: mariadb-si-ru-update-skips-uncommitted-delete
-- title: With innodb_snapshot_isolation=ON a READ UNCOMMITTED UPDATE skips, without waiting, a row another transaction's unfinished DELETE locked; that transaction rolls back and the update is lost
-- dbms: MariaDB 10.11.19
-- isolation: read-uncommitted
-- targets: mariadb?innodb_snapshot_isolation=ON
-- Found by `txhunt fuzz --target 'mariadb?innodb_snapshot_isolation=ON' --seed 401` (cases
-- 943, 5044, 9250, 9309 and 10184, all at READ UNCOMMITTED; none in 13,572 cases of plain
-- MariaDB), rewritten without a deadlock and confirmed with PyMySQL clients on a private
-- 10.11.19 server. t2's DELETE deletes row 1 and waits for row 2 (t3's lock). t1's UPDATE
-- finds row 1 locked by t2. InnoDB documents READ UNCOMMITTED as working like READ COMMITTED
-- apart from its consistent reads, and its semi-consistent read skips a locked row only when
-- the row's latest committed version does not match the WHERE clause (MariaDB KB, SET
-- TRANSACTION § Semi-Consistent Reads): (1, 1) matches, so t1 must wait for t2. It does with
-- the variable OFF, and at READ COMMITTED with it ON; at READ UNCOMMITTED with it ON, t1
-- changes nothing at once, t2 rolls back, and t1's update of row 1 is lost. The
-- expectations state the documented behaviour.
/* init */ CREATE TABLE t (id INT PRIMARY KEY, k INT);
/* init */ INSERT INTO t VALUES (1, 1), (2, 2);
/* t3 */ BEGIN;
/* t3 */ UPDATE t SET k = 2 WHERE id = 2;      -- expect: affected 0
/* t2 */ BEGIN;
/* t2 */ DELETE FROM t WHERE k <= 3;           -- expect: blocked then affected 2
/* t1 */ UPDATE t SET k = 4 WHERE k = 1;       -- expect: blocked then affected 1
/* t3 */ ROLLBACK;
/* t2 */ ROLLBACK;
-- expect final: t = [(1, 4), (2, 2)]
