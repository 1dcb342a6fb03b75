-- id: postgres-PG-bitmapscan-skip-fetch
-- title: An open bitmap-heap-scan cursor must not return rows deleted before its snapshot when VACUUM marks their pages all-visible meanwhile
-- link: https://www.postgresql.org/docs/release/15.13/
-- dbms: PostgreSQL 13.0-13.20, 14.0-14.17, 15.0-15.12, 16.0-16.8, 17.0-17.4
-- isolation: read-committed, repeatable-read
-- buggy: FETCH ALL returned one row per deleted tuple (the "skip fetch" shortcut of bitmap heap scans trusted the visibility map for TIDs collected before the VACUUM, and counted tuples VACUUM had just removed)
-- fixed-in: 15.13, 14.18, 13.21, 16.9, 17.5
-- Comment: the query needs no column of the table, so a bitmap heap scan could skip reading heap pages that the
-- visibility map marks all-visible and simply count the TIDs that the index part of the scan returned. t1's cursor
-- collects its TIDs (index entries of the already deleted rows included), then t2's VACUUM removes the dead rows and
-- marks their pages all-visible; the rest of the scan then counted TIDs that no longer point to live rows. Only row 1
-- is visible to the cursor's snapshot, and FETCH 1 already returned it, so FETCH ALL must return nothing.
/* init */ CREATE TABLE ios_bitmap (a int NOT NULL, b int not null, pad char(1024) default '') WITH (AUTOVACUUM_ENABLED = false, FILLFACTOR = 10);
/* init */ INSERT INTO ios_bitmap SELECT g.i, g.i FROM generate_series(1, 10) g(i);
/* init */ CREATE INDEX ios_bitmap_a ON ios_bitmap(a);
/* init */ CREATE INDEX ios_bitmap_b ON ios_bitmap(b);
/* t2 */ VACUUM (TRUNCATE false) ios_bitmap;
/* t2 */ DELETE FROM ios_bitmap WHERE a > 1;  -- expect: affected 9
/* t1 */ SET enable_seqscan = false;
/* t1 */ BEGIN;
/* t1 */ DECLARE foo NO SCROLL CURSOR FOR SELECT row_number() OVER () FROM ios_bitmap WHERE a > 0 or b > 0;
/* t1 */ FETCH FROM foo;  -- expect: rows [1]
/* t2 */ VACUUM (TRUNCATE false) ios_bitmap;
/* t1 */ FETCH ALL FROM foo;  -- expect: rows []
/* t1 */ COMMIT;
