-- id: sqlite-turso-stale-writer
-- title: A writer holding an older snapshot: SQLite refuses it at once, Turso makes it wait, then refuses it
-- dbms: SQLite 3.54.1 (bundled) vs Turso 0.8.3 (normal mode)
-- isolation: serializable
-- pair: sqlite turso
-- differential: blocking concurrency-control
-- SQLite returns SQLITE_BUSY at once to a transaction that read an older snapshot and then tries
-- to write while another transaction writes (waiting could never help it: the snapshot is
-- stale); Turso reports Busy until the writer commits, then BusySnapshot. Both refuse t2, so
-- both runs are serializable: a lock-mechanism difference (paper 000 §6.1), not a bug.
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
