-- id: postgres-rc-read-beside-open-delete
-- title: READ COMMITTED: a read beside a DELETE not yet committed is shown on the state committed when it started
-- isolation: read-committed
-- Minimized from fuzz case 15/6774. t1's DELETE runs after t2 committed the removal of row 2
-- (a statement snapshot newer than t1's first SELECT: no snapshot replay of t1 explains it).
-- t3 inserts row 3 in autocommit after that DELETE, and t4 reads row 1, which t1 deleted but
-- had not committed, and row 3. The commit order t2 → t5 → t3 → t4 → t1 deletes row 3 too:
-- not write-serializable. t5 counts the rows after t2's commit; on its older snapshot at
-- REPEATABLE READ or SERIALIZABLE it counts 2, which the CHECK refuses: another path, so no
-- stronger level shows the run. The statements form a cycle (t4 → t1's DELETE → t3 → t4) no
-- sequential run can follow, so decycling leaves t4 out; READ COMMITTED promises it the state
-- committed when it started, and run alone after t2's, t5's and t3's statements it gives its
-- result.
/* init */ CREATE TABLE t (k INT PRIMARY KEY, v TEXT);
/* init */ CREATE TABLE u (n INT CHECK (n <> 2));
/* init */ INSERT INTO t VALUES (1, 'x'), (2, 'x');
/* t1 */ BEGIN;
/* t5 */ BEGIN;
/* t1 */ SELECT k FROM t;                              -- expect: rows [1, 2]
/* t5 */ SELECT k FROM t WHERE k = 1;                  -- expect: rows [1]
/* t2 */ DELETE FROM t WHERE k = 2;                    -- expect: affected 1
/* t5 */ INSERT INTO u VALUES ((SELECT COUNT(*) FROM t));  -- expect: affected 1
/* t5 */ COMMIT;
/* t1 */ DELETE FROM t;                                -- expect: affected 1
/* t3 */ INSERT INTO t VALUES (3, 'y');                -- expect: affected 1
/* t4 */ SELECT k, v FROM t;                           -- expect: rows [(1, 'x'), (3, 'y')]
/* t1 */ COMMIT;
-- expect final: t = [(3, 'y')]
-- expect final: u = [1]
