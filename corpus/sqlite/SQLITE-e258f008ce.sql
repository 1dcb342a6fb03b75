-- id: SQLITE-e258f008ce
-- title: Two FTS5 'rebuild' commands in one transaction must leave an index that passes 'integrity-check'
-- link: https://www.sqlite.org/src/tktview?name=e258f008ce
-- dbms: SQLite
-- version-note: the SQLite version the ticket was filed against is not recorded in the sources found
-- isolation: read-uncommitted, serializable
-- source: ticket e258f008ce (listed in icse2024-transaction-bugs-summary.txt); statements taken from a public GitHub file that collects SQLite-ticket reproductions (case fts5_rebuild_twice_in_txn, citing tktview?name=e258f008ce)
-- buggy: the FTS5 'integrity-check' inside the transaction reported the index as corrupt after the second 'rebuild' (inferred from the reproduction; the ticket text itself was not found)
-- Single-session PoC (all statements on t1). Needs SQLite built with FTS5. The source leaves the transaction open
-- at the end; no final-state expectation is written for that reason.
/* init */ CREATE VIRTUAL TABLE vt0 USING fts5(c0);
/* init */ INSERT INTO vt0(c0) VALUES (NULL);
/* t1 */ BEGIN TRANSACTION;  -- expect: ok
/* t1 */ INSERT INTO vt0(vt0) VALUES('rebuild');  -- expect: ok
/* t1 */ INSERT INTO vt0(vt0) VALUES('rebuild');  -- expect: ok
/* t1 */ INSERT INTO vt0(vt0) VALUES('integrity-check');  -- expect: ok
/* t1 */ SELECT count(*) FROM vt0;  -- expect: rows [(1)]
