-- id: paper-001-listing-4
-- title: Optimistic DELETE of all rows commits although a concurrent transaction inserted and committed a row
-- link: https://github.com/pingcap/tidb/issues/42486
-- dbms: TiDB
-- isolation: repeatable-read
-- mode: optimistic
-- source: WriteCheck paper (001), Listing 4
-- buggy: T2 committed, leaving the state {2}; the paper says T2 should abort (conflict with T1); the serial state (T1 -> T2) is {}.
-- No expectation: a correct DBMS may either abort T2 at COMMIT (state {1, 2}) or behave as the serial order (state {}),
-- and the scenario language cannot state "one of".
/* init */ CREATE TABLE t(c1 INT);
/* init */ INSERT INTO t(c1) VALUES (1);
/* t1 */ BEGIN OPTIMISTIC;
/* t2 */ BEGIN OPTIMISTIC;
/* t1 */ INSERT INTO t(c1) VALUES (2);
/* t1 */ COMMIT;
/* t2 */ DELETE FROM t;
/* t2 */ COMMIT;
