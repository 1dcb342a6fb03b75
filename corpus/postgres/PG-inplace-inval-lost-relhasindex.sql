-- id: postgres-PG-inplace-inval-lost-relhasindex
-- title: A rolled-back CREATE INDEX must not leave other sessions with a stale cached pg_class row that a later ALTER TABLE writes back, losing relhasindex
-- link: https://github.com/postgres/postgres/commit/243e9b4
-- dbms: PostgreSQL 12.x, 13.x, 14.0-14.20, 15.0-15.15, 16.0-16.11, 17.0-17.7
-- isolation: read-committed
-- buggy: t2's CREATE INDEX found relhasindex already true (left by t1's rolled-back in-place update) and sent no invalidation; t3 then rewrote its stale cached pg_class row (relhasindex=false) in ALTER TABLE, so the unique index was no longer maintained and the duplicate key was accepted
-- fixed-in: 15.16, 17.8, 16.12, 14.21, 18.0
-- Comment: an in-place update (relhasindex=true by CREATE INDEX) is not transactional, but its cache invalidation
-- was queued with the transaction and discarded by t1's ROLLBACK. t3 had the pg_class row cached from before; t2's
-- CREATE UNIQUE INDEX saw the flag already set and changed nothing; t3's ALTER TABLE then used its stale cached copy
-- as the old tuple and wrote relhasindex=false. Correct outcome: relhasindex stays true and the unique index rejects
-- the duplicate key. Upstream: commit "For inplace update, send nontransactional invalidations" (isolation spec
-- inplace-inval.spec); observed here: fails on 15.15/16.11/17.7/14.20, passes on 15.16/16.12/17.8/14.21.
/* init */ CREATE TABLE t (c int);
/* t3 */ SELECT * FROM t;  -- expect: rows []
/* t1 */ BEGIN;
/* t1 */ CREATE INDEX i1 ON t (c);  -- expect: ok
/* t1 */ ROLLBACK;
/* t2 */ CREATE UNIQUE INDEX i2 ON t (c);  -- expect: ok
/* t3 */ ALTER TABLE t ADD extra int;  -- expect: ok
/* t1 */ SELECT count(*) FROM pg_class WHERE oid = 't'::regclass AND relhasindex;  -- expect: rows [1]
/* t1 */ INSERT INTO t VALUES (1, NULL);  -- expect: affected 1
/* t1 */ INSERT INTO t VALUES (1, NULL);  -- expect: error constraint
-- expect final: t = [(1, NULL)]
