-- id: turso-savepoint-refuses-writer
-- title: A transaction opened by SAVEPOINT: its first write waits for another writer, then Turso refuses it with BusySnapshot where SQLite runs it
-- dbms: SQLite 3.54.1 (bundled) vs Turso 0.8.3 (normal mode)
-- isolation: serializable
-- pair: sqlite turso
-- differential: error candidate
-- SQLite's documentation (lang_savepoint.html): a SAVEPOINT outside BEGIN…COMMIT behaves as
-- BEGIN DEFERRED TRANSACTION, which takes no snapshot until the first read. So t2's UPDATE,
-- which finds t1's write lock, has no snapshot yet: SQLite's busy handler waits, and after
-- t1 commits the UPDATE reads the new value and runs. Turso answers BusySnapshot: its
-- transaction had taken a snapshot at the SAVEPOINT. Confirmed with independent clients
-- (Python's sqlite3 and pyturso 0.8.3): SQLite runs the retried UPDATE (v = 11), Turso
-- refuses it and t2 then still reads v = 0. After BEGIN instead of SAVEPOINT both engines
-- run it. See turso-savepoint-snapshot.sql for the read alone.
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);
/* init */ INSERT INTO t VALUES (1, 0);
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET v = 1 WHERE k = 1;  -- expect: affected 1
/* t2 */ SAVEPOINT sp1;
/* t2 */ UPDATE t SET v = v + 10 WHERE k = 1;  -- expect: blocked then affected 1
/* t1 */ COMMIT;
/* t2 */ RELEASE sp1;  -- expect: ok
-- expect final: t = [(1, 11)]
