-- id: mariadb-ru-delete-misses-insert-behind-its-scan-text-key
-- title: READ UNCOMMITTED: a DELETE that waited on a (INT, VARCHAR) key misses the row inserted behind its scan
-- isolation: read-uncommitted
-- After case 5473 of `txhunt fuzz --target mariadb --isolation all --seed 7014`, as txhunt
-- reduced it (a bug candidate). t4's autocommit DELETE scans the primary key and waits at
-- (2, 'b'), which t2 updated; t2 inserts (1, 'c') behind the scan and commits; the DELETE,
-- resumed, deletes (2, 'b') only, and t3 then updates the row it missed. No serial order
-- leaves (1, 'c'). The key's strings hold only digits and lower-case letters, whose order no
-- collation changes: on the rows its scan passed before the wait as they were when it started
-- (none) and the rest as they were when it completed, the DELETE deletes one row, as in the run.
/* init */ CREATE TABLE t (k INT NOT NULL, v TEXT, w VARCHAR(5) NOT NULL, x INT NOT NULL, PRIMARY KEY (k, w));
/* init */ INSERT INTO t (k, v, w, x) VALUES (2, 'a', 'b', 3);
/* t2 */ BEGIN;
/* t2 */ UPDATE t SET v = 'd';  -- expect: affected 1
/* t4 */ DELETE FROM t;  -- expect: blocked then affected 1
/* t2 */ INSERT INTO t (k, v, w, x) VALUES (1, 'a', 'c', 4);  -- expect: affected 1
/* t2 */ COMMIT;
/* t3 */ UPDATE t SET x = -1;  -- expect: affected 1
-- expect final: t = [(1, 'a', 'c', -1)]
