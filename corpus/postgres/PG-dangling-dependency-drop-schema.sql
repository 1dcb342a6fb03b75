-- id: postgres-PG-dangling-dependency-drop-schema
-- title: DROP SCHEMA concurrent with CREATE FUNCTION in that schema must not let both commit and leave a function in a dropped schema
-- link: https://www.postgresql.org/docs/release/15.19/
-- dbms: PostgreSQL 15.0-15.18 (and the other branches before the same-day releases)
-- isolation: read-committed, repeatable-read, serializable
-- buggy: DROP SCHEMA did not wait for t1 and succeeded because the schema looked empty to it; after t1 committed, pg_proc held a function whose pronamespace no longer exists
-- fixed-in: 15.19
-- Comment: creating an object now takes a shared lock on each object it depends on (here the schema), so the
-- concurrent DROP SCHEMA waits for t1 and then fails because the schema is no longer empty (one transaction or the
-- other must fail). t3 looks for functions whose schema is missing, then cleans up (the schema is not in txhunt's
-- per-run schema, so it would survive into the run at the next level).
/* init */ DROP SCHEMA IF EXISTS dep_s CASCADE;
/* init */ CREATE SCHEMA dep_s;
/* t1 */ BEGIN;
/* t1 */ CREATE FUNCTION dep_s.dangling_f() RETURNS int LANGUAGE sql AS 'SELECT 1';  -- expect: ok
/* t2 */ DROP SCHEMA dep_s;  -- expect: blocked then error
/* t1 */ COMMIT;  -- expect: ok
/* t3 */ SELECT count(*) FROM pg_proc p WHERE p.proname = 'dangling_f' AND NOT EXISTS (SELECT 1 FROM pg_namespace n WHERE n.oid = p.pronamespace);  -- expect: rows [0]
/* t3 */ DROP SCHEMA IF EXISTS dep_s CASCADE;
