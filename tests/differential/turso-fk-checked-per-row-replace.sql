-- id: turso-fk-checked-per-row-replace
-- title: Turso checks an immediate foreign key after each row of INSERT OR REPLACE, not at the end of the statement
-- dbms: SQLite 3.54.1 (bundled) vs Turso 0.8.3 (normal mode)
-- isolation: serializable
-- pair: sqlite turso
-- differential: error candidate
-- Found by `txhunt fuzz --target sqlite --target turso --seed 2026` (case 10061), minimized
-- by hand. The first row replaces child 35 with one that refers to a missing parent (-18);
-- the second replaces it again with one that refers to parent 37. At the end of the
-- statement no reference is broken, so SQLite (which checks immediate foreign keys when the
-- statement ends, Foreign Key Support §4.2) succeeds; Turso 0.8.3 fails with "FOREIGN KEY
-- constraint failed". Judged: a Turso bug, the same as turso-fk-checked-per-row-upsert.sql
-- from the child's side.
/* init */ CREATE TABLE p(k INT PRIMARY KEY);
/* init */ CREATE TABLE c(x INT PRIMARY KEY, pk INT, FOREIGN KEY (pk) REFERENCES p (k));
/* init */ INSERT INTO p VALUES (37);
/* init */ INSERT INTO c VALUES (35, 37);
/* t1 */ INSERT OR REPLACE INTO c VALUES (35, -18), (35, 37);  -- expect: affected 2
-- expect final: c = [(35, 37)]
