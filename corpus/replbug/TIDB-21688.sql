-- id: TIDB-21688
-- title: Locking is different depending on whether the queried column is part of a point or a table scan.
-- link: https://github.com/pingcap/tidb/issues/21688
-- dbms: TiDB v4.0.7
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-21688.txt scenario_0
-- description: Locking is different depending on whether the queried column is part of a point or a table scan.
-- bug-type: Missing blocking; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- Point-get vs table-scan locking of a non-matching row; whether either should block is plan-dependent, no expectation.
/* init */ create table t (k1 int, k2 int, v int, unique key (k1));
/* init */ insert into t values (1, 1, null), (2, 2, 2);
/* t1 */ begin;
/* t2 */ begin;
-- Comment from the source PoC on the next statement: 0 row affected (point get)
/* t1 */ update t set v = 10 where (k1, v) in ((1, null));
-- Comment from the source PoC on the next statement: blocked
/* t2 */ update t set v = 11 where (k1, v) in ((1, null));
/* t1 */ commit;
/* t2 */ commit;
