-- id: PG-16676
-- title: FETCH FIRST … WITH TIES together with SKIP LOCKED cannot honour the tie set; PostgreSQL must reject the combination
-- link: https://www.postgresql.org/message-id/16676-fd62c3c835880da6@postgresql.org
-- dbms: PostgreSQL 13.0
-- source: PostgreSQL bug #16676 as named in icse2024-transaction-bugs-summary.txt; the report's own SQL was not available here, so this PoC follows the fix ("Error out if SKIP LOCKED and WITH TIES are both specified"), which makes the combination an error
-- buggy: versions before the fix accepted the combination (what the query then returned is in the report, not available here)
/* init */ CREATE TABLE t(k INT, v INT);
/* init */ INSERT INTO t VALUES (1, 1), (1, 2), (2, 3);
/* t1 */ BEGIN;
/* t1 */ SELECT k, v FROM t WHERE v = 1 FOR UPDATE;  -- expect: rows [(1, 1)]
/* t2 */ BEGIN;
/* t2 */ SELECT k, v FROM t ORDER BY k FETCH FIRST 1 ROWS WITH TIES FOR UPDATE SKIP LOCKED;  -- expect: error
/* t2 */ ROLLBACK;
/* t1 */ COMMIT;
-- expect final: t = [(1, 1), (1, 2), (2, 3)]
