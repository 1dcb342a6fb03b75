-- id: sqlite-turso-foreign-keys
-- title: Both embedded engines enforce foreign keys
-- dbms: SQLite 3.54.1 (bundled) vs Turso 0.8.3 (normal mode)
-- isolation: serializable
-- pair: sqlite turso
-- differential: none
-- Found by `txhunt fuzz --target sqlite --target turso` (seed 2026): every differential error
-- was a FOREIGN KEY violation SQLite reported and Turso did not. rusqlite's bundled SQLite is
-- built with foreign keys on by default; Turso, like stock SQLite, needs
-- `PRAGMA foreign_keys = ON` per connection, which the turso target now sends. A difference
-- of configuration, not of either engine.
/* init */ CREATE TABLE p(k INT PRIMARY KEY);
/* init */ CREATE TABLE c(k INT PRIMARY KEY, pk INT, FOREIGN KEY (pk) REFERENCES p (k));
/* init */ INSERT INTO p VALUES (1), (2);
/* init */ INSERT INTO c VALUES (1, 1);
/* t1 */ INSERT INTO c VALUES (2, 3);  -- expect: error constraint
/* t1 */ DELETE FROM p WHERE k = 1;  -- expect: error constraint
/* t1 */ DELETE FROM p WHERE k = 2;  -- expect: affected 1
-- expect final: p = [(1)]
-- expect final: c = [(1, 1)]
