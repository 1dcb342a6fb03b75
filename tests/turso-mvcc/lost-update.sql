-- id: turso-5421-lost-update
-- title: Read-modify-write of one row by two snapshot transactions: the later writer must fail
-- link: https://github.com/tursodatabase/turso/issues/5421
-- dbms: Turso 0.8.3 (MVCC mode)
-- isolation: snapshot
-- Turso issue #5421 (closed): concurrent `UPDATE counter SET val = val + 1` lost increments.
-- Under snapshot isolation t2, whose snapshot predates t1's commit, must not overwrite t1's
-- increment (first committer wins).
/* init */ CREATE TABLE counter(id INT PRIMARY KEY, val INT);
/* init */ INSERT INTO counter VALUES (1, 0);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t1 */ SELECT val FROM counter WHERE id = 1;  -- expect: rows [(0)]
/* t2 */ SELECT val FROM counter WHERE id = 1;  -- expect: rows [(0)]
/* t1 */ UPDATE counter SET val = val + 1 WHERE id = 1;  -- expect: affected 1
/* t1 */ COMMIT;
/* t2 */ UPDATE counter SET val = val + 1 WHERE id = 1;  -- expect: error serialization
/* t2 */ COMMIT;
-- expect final: counter = [(1, 1)]
