-- id: mariadb-rc-pk-update-then-delete
-- title: At read-committed a DELETE that waits for a transaction moving the only row's primary key twice deletes nothing
-- dbms: MariaDB 10.11
-- isolation: read-committed
-- The committing variant of MDEV-27992 (corpus/replbug/MDEV-27992.sql): t2's DELETE waits
-- for t1, which moves the row's primary key again, and after t1 commits deletes nothing. No
-- serial order of t1 and t2 keeps the row, and the case has no INSERT (no gap is involved):
-- txhunt must report a bug candidate, not excuse it as a missing gap lock or a
-- semi-consistent read.
/* init */ CREATE TABLE t(c1 INT PRIMARY KEY, c2 INT);
/* init */ INSERT INTO t(c1) VALUES (8);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t1 */ UPDATE t SET c1 = 5, c2 = 5;  -- expect: affected 1
/* t2 */ DELETE FROM t;  -- expect: blocked then affected 1
/* t1 */ UPDATE t SET c1 = 3;  -- expect: affected 1
/* t1 */ COMMIT;
/* t2 */ COMMIT;
-- expect final: t = []
