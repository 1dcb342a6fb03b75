-- id: postgres-PG-epq-inheritance-recheck
-- title: A READ COMMITTED UPDATE/DELETE on an inheritance tree must skip rows whose concurrent update made them fail the WHERE clause
-- link: https://www.postgresql.org/docs/release/15.4/
-- dbms: PostgreSQL 11.0-11.20, 12.0-12.15, 13.0-13.11, 14.0-14.8, 15.0-15.3
-- isolation: read-committed
-- buggy: the waiting UPDATE still changed rows of the later child tables, whose new versions have c = 4 and no longer satisfy c = 0 (the EvalPlanQual re-check was confused by matches found in another child table)
-- fixed-in: 15.4, 14.9, 13.12, 12.16, 11.21
-- Comment: p has three inheritance children. t1 sets c = 4 on every row with c = 0; t2's UPDATE ... WHERE c = 0
-- waits for it. After t1 commits, t2 must re-check each updated row against c = 0, find that none qualifies any
-- more, and update nothing. The second part repeats the test with DELETE.
/* init */ CREATE TABLE p (a int, b int, c int);
/* init */ CREATE TABLE c1 () INHERITS (p);
/* init */ CREATE TABLE c2 () INHERITS (p);
/* init */ CREATE TABLE c3 () INHERITS (p);
/* init */ INSERT INTO c1 SELECT 0, a / 3, a % 3 FROM generate_series(0, 9) a;
/* init */ INSERT INTO c2 SELECT 1, a / 3, a % 3 FROM generate_series(0, 9) a;
/* init */ INSERT INTO c3 SELECT 2, a / 3, a % 3 FROM generate_series(0, 9) a;
/* t1 */ BEGIN;
/* t1 */ UPDATE p SET c = 4 WHERE c = 0;  -- expect: affected 12
/* t2 */ BEGIN;
/* t2 */ UPDATE p SET b = -4 WHERE c = 0;  -- expect: blocked then affected 0
/* t1 */ COMMIT;
/* t2 */ COMMIT;
/* t2 */ SELECT count(*) FROM p WHERE b = -4;  -- expect: rows [0]
/* t1 */ UPDATE p SET c = 0 WHERE c = 4;  -- expect: affected 12
/* t1 */ BEGIN;
/* t1 */ UPDATE p SET c = 4 WHERE c = 0;  -- expect: affected 12
/* t2 */ BEGIN;
/* t2 */ DELETE FROM p WHERE c = 0;  -- expect: blocked then affected 0
/* t1 */ COMMIT;
/* t2 */ COMMIT;
/* t2 */ SELECT count(*) FROM p;  -- expect: rows [30]
