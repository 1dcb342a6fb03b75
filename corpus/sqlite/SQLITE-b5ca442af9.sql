-- id: SQLITE-b5ca442af9
-- title: A CREATE INDEX that fails inside a transaction must leave no trace: the same index name is free afterwards
-- link: https://www.sqlite.org/src/tktview?name=b5ca442af9
-- dbms: SQLite
-- version-note: the SQLite version the ticket was filed against is not recorded in the sources found (ticket from 2019)
-- isolation: read-uncommitted, serializable
-- source: ticket b5ca442af9 ("Malformed database schema" when creating a failing index within a transaction, per writecheck-studied-bugs-summary.txt); statements taken from a public GitHub file that collects SQLite-ticket reproductions (case failed_index_in_transaction_abs_minint, citing tktview/b5ca442af9fadf5eff5b2bf64839516ab82cfc3d)
-- buggy: per the ticket title, the failed CREATE INDEX inside the transaction left the schema in a state reported as "malformed database schema"; in the reproduction this surfaces at the second CREATE INDEX i0 (the ticket text itself was not reachable, so the exact message is not recorded here)
-- Single-session PoC (all statements on t1). ABS() of the smallest 64-bit integer overflows, so the first
-- CREATE INDEX fails while computing the index keys; SQLite undoes only that statement, the transaction stays open.
-- The setup's CREATE TABLE IF NOT EXISTS of the source is written as CREATE TABLE (each run gets a fresh database).
/* init */ CREATE TABLE t0(c0);
/* init */ INSERT INTO t0(c0) VALUES (-9223372036854775808);
/* t1 */ BEGIN TRANSACTION;  -- expect: ok
/* t1 */ CREATE INDEX i0 ON t0(ABS(c0));  -- expect: error
/* t1 */ COMMIT;  -- expect: ok
/* t1 */ CREATE INDEX i0 ON t0(1);  -- expect: ok
/* t1 */ SELECT * FROM t0;  -- expect: rows [(-9223372036854775808)]
-- expect final: t0 = [(-9223372036854775808)]
