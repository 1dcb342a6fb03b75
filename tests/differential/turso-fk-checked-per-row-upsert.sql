-- id: turso-fk-checked-per-row-upsert
-- title: Turso checks an immediate foreign key after each row of an upsert, not at the end of the statement
-- dbms: SQLite 3.54.1 (bundled) vs Turso 0.8.3 (normal mode)
-- isolation: serializable
-- pair: sqlite turso
-- differential: error candidate
-- Found by `txhunt fuzz --target sqlite --target turso --seed 2026` (case 9363), minimized by
-- hand. The first row's DO UPDATE moves parent key 44 to 9 while child 1 still refers to 44;
-- the second row inserts 44 again. SQLite checks an immediate foreign key when the statement
-- ends (SQLite documentation, Foreign Key Support §4.2), and by then 44 exists: the upsert
-- succeeds. Turso 0.8.3 fails it with "FOREIGN KEY constraint failed". Judged: a Turso bug
-- (not transaction-related: one statement shows it). Related upstream work: Turso PR #6429
-- (a similar immediate-check fix for UPDATE OR REPLACE).
/* init */ CREATE TABLE p(k INT PRIMARY KEY);
/* init */ CREATE TABLE c(x INT PRIMARY KEY, pk INT, FOREIGN KEY (pk) REFERENCES p (k));
/* init */ INSERT INTO p VALUES (44);
/* init */ INSERT INTO c VALUES (1, 44);
/* t1 */ INSERT INTO p VALUES (44), (44) ON CONFLICT (k) DO UPDATE SET k = 9;  -- expect: affected 2
-- expect final: p = [(9), (44)]
-- expect final: c = [(1, 44)]
