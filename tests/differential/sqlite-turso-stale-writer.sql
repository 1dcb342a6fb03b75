-- id: sqlite-turso-stale-writer
-- title: A writer holding a read snapshot gets SQLITE_BUSY at once, on SQLite and (as txhunt drives it) on Turso
-- dbms: SQLite 3.54.1 (bundled) vs Turso 0.8.3 (normal mode)
-- isolation: serializable
-- pair: sqlite turso
-- differential: none
-- SQLite calls its busy handler only for a connection that holds no transaction yet, so a
-- transaction that has read and then tries to write while another one writes gets
-- SQLITE_BUSY at once. Turso answers Busy to every waiting writer; txhunt's Turso driver
-- follows SQLite's rule (it waited, then Turso said BusySnapshot, before), so the two
-- engines, which claim one locking model, are compared event for event: no difference.
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);
/* init */ INSERT INTO t VALUES (1, 0), (2, 0);
/* t1 */ BEGIN;
/* t1 */ SELECT v FROM t WHERE k = 1;
/* t2 */ BEGIN;
/* t2 */ SELECT v FROM t WHERE k = 2;
/* t1 */ UPDATE t SET v = 1 WHERE k = 1;
/* t2 */ UPDATE t SET v = 2 WHERE k = 2;
/* t1 */ COMMIT;
/* t2 */ COMMIT;
-- expect final: t = [(1, 1), (2, 0)]
