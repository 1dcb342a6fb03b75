-- id: postgres-PG-inplace-update-lost-relhasindex
-- title: An index build must not lose pg_class.relhasindex to a concurrent uncommitted GRANT on the table (index then silently unmaintained)
-- link: https://postgr.es/m/CAMp+ueZQz3yDk7qg42hk6-9gxniYbp-=bG2mgqecErqR5gGGOA@mail.gmail.com
-- dbms: PostgreSQL 12.0-12.20, 13.0-13.16, 14.0-14.13, 15.0-15.8, 16.0-16.4, 17.0
-- isolation: read-committed
-- buggy: ADD PRIMARY KEY did not wait for the GRANT; its in-place update of relhasindex=true went to the old pg_class row version, and the GRANT's commit installed a copy with relhasindex=false, so later INSERTs skipped the index: the duplicate key 1 was accepted (the index then lacks those rows)
-- fixed-in: 15.9, 17.1, 16.5, 14.14, 13.17, 12.21
-- Comment: GRANT takes no heavyweight lock on the table; its "lock" is the xmax of the pg_class row it rewrote.
-- The index build records relhasindex with a non-transactional in-place update of the pg_class row. Before the fix
-- (commit "Fix data loss at inplace update after heap_update()") that update hit the superseded row version, so the
-- flag was lost when t1 committed. Since the fix the in-place update waits for t1 and then updates the new version.
-- Correct outcome: relhasindex is true and the second INSERT of key 1 fails with a unique violation.
/* init */ CREATE TABLE t (c int);
/* t1 */ BEGIN;
/* t1 */ GRANT SELECT ON t TO PUBLIC;  -- expect: ok
/* t2 */ ALTER TABLE t ADD PRIMARY KEY (c);  -- expect: blocked then ok
/* t1 */ COMMIT;
/* t2 */ SELECT count(*) FROM pg_class WHERE oid = 't'::regclass AND relhasindex;  -- expect: rows [1]
/* t2 */ INSERT INTO t VALUES (1);  -- expect: affected 1
/* t2 */ INSERT INTO t VALUES (1);  -- expect: error constraint
/* t2 */ INSERT INTO t VALUES (2);  -- expect: affected 1
-- expect final: t = [(1), (2)]
