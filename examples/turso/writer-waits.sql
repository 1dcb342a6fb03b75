-- id: turso-writer-waits
-- title: Normal mode: a second writer waits for the first to commit, as in SQLite
-- dbms: Turso 0.8.3 (normal mode)
-- isolation: serializable
-- Turso reports the conflict as Busy at once; txhunt reports it as a lock wait and retries,
-- as SQLite's busy handler does.
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);
/* t1 */ BEGIN;
/* t1 */ INSERT INTO t VALUES (1, 10);  -- expect: affected 1
/* t2 */ BEGIN;
/* t2 */ INSERT INTO t VALUES (2, 20);  -- expect: blocked then affected 1
/* t1 */ COMMIT;
/* t2 */ COMMIT;
-- expect final: t = [(1, 10), (2, 20)]
