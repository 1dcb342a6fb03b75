-- id: turso-savepoint-snapshot
-- title: A transaction opened by SAVEPOINT reads the snapshot taken at the SAVEPOINT on Turso, at its first read on SQLite
-- dbms: SQLite 3.54.1 (bundled) vs Turso 0.8.3 (normal mode)
-- isolation: serializable
-- pair: sqlite turso
-- differential: result candidate
-- SQLite's documentation (lang_savepoint.html): a SAVEPOINT outside BEGIN…COMMIT behaves as
-- BEGIN DEFERRED TRANSACTION, whose snapshot is taken by its first read. t1 commits v = 1
-- after t2's SAVEPOINT and before t2's first read: SQLite reads 1, Turso 0 (a snapshot taken
-- at the SAVEPOINT). Confirmed with Python's sqlite3 and pyturso 0.8.3; after BEGIN both
-- read 1.
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);
/* init */ INSERT INTO t VALUES (1, 0);
/* t2 */ SAVEPOINT sp1;
/* t1 */ UPDATE t SET v = 1 WHERE k = 1;  -- expect: affected 1
/* t2 */ SELECT v FROM t;  -- expect: rows [(1)]
/* t2 */ RELEASE sp1;  -- expect: ok
