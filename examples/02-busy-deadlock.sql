-- id: busy-deadlock
-- title: A reader that wants to write while another transaction writes is refused at once (SQLite's deadlock avoidance)
-- dbms: SQLite
-- isolation: serializable
-- t1 holds a read snapshot and asks for the write lock t2 holds. Waiting could deadlock, so SQLite
-- returns SQLITE_BUSY without waiting; txhunt reports it as a deadlock and sends ROLLBACK for t1.
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);
/* init */ INSERT INTO t VALUES (1, 10);
/* t1 */ BEGIN;
/* t1 */ SELECT v FROM t WHERE k = 1;          -- expect: rows [10]
/* t2 */ BEGIN;
/* t2 */ UPDATE t SET v = 20 WHERE k = 1;      -- expect: affected 1
/* t1 */ UPDATE t SET v = 30 WHERE k = 1;      -- expect: deadlock
/* t2 */ COMMIT;                               -- expect: ok
/* t1 */ COMMIT;                               -- expect: error -- t1 was rolled back already
-- expect final: t = [(1, 20)]
