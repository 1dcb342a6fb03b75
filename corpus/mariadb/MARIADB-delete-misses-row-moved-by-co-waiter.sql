-- id: mariadb-delete-misses-row-moved-by-co-waiter
-- title: A DELETE without a WHERE clause that waited for a row another waiting UPDATE then moved deletes nothing, and the row stays (MDEV-27992 below REPEATABLE READ)
-- dbms: MariaDB 10.11.19 (Debian 12's mariadb-server)
-- isolation: read-uncommitted, read-committed
-- buggy: t1's failed INSERT keeps a lock on row 347; t5's UPDATE and then t2's DELETE wait for it. Once t1 commits, t5 moves 347 to 1 and commits; t2's DELETE FROM t resumes at 347, finds it gone, and ends with 0 rows affected: row 1 is left, although the table had a row from start to end and the DELETE has no WHERE clause. At REPEATABLE READ the DELETE gets a deadlock error instead (the part of MDEV-27992's fix that applies there).
-- source: found by txhunt (fuzz --target mariadb --isolation all --seed 7010, case 12675, WSS final state at read-uncommitted), reduced by txhunt; checked with an independent client (scripts/triage/mariadb-delete-misses-moved-row.py PORT LEVEL 12675: PyMySQL, a connection per session; at read-uncommitted and read-committed the DELETE affected 0 and left [1], at repeatable-read it got error 1213)
-- levels-note: MDEV-27992 (closed as fixed) is the same with the holder moving the row; its PoC still reproduces on 10.11 at read-uncommitted and read-committed (corpus/results/mariadb-10.11.md). Here a second waiter moves it, so a fix that only looks at the holder would not cover it. A fix that ends the DELETE with an error, as at REPEATABLE READ, would also be correct, but this file's expectation asks for the row to be deleted.
/* init */ CREATE TABLE t (k BIGINT NOT NULL, PRIMARY KEY (k));
/* init */ INSERT INTO t (k) VALUES (347);
/* t1 */ BEGIN;
/* t1 */ INSERT INTO t (k) VALUES (347);  -- expect: error constraint
/* t5 */ UPDATE t SET k = 1;  -- expect: blocked then affected 1
/* t2 */ DELETE FROM t;  -- expect: blocked then affected 1
/* t1 */ COMMIT;
-- expect final: t = []
