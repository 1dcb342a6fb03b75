-- id: sdg-fig15-single-transaction
-- title: TxCheck Figure 15: one transaction's calculation differs from the same statements alone (TiDB)
-- link: https://www.usenix.org/conference/osdi23/presentation/jiang
-- sdg-edge: t1.2 -wr-> t1.3
-- sdg-order: t1.2 → t1.3
-- The paper's update copies t_2's column into t_0 through a join its listing elides; ours
-- takes one value of t_2 through a subquery, which every DBMS here accepts. Within the
-- transaction and alone the count must be the same (TiDB returned 39 and 36).
/* init */ CREATE TABLE t_0 (pkey INT PRIMARY KEY, c_0 INT, c_2 INT);
/* init */ INSERT INTO t_0 VALUES (1, 5, 1), (2, 6, NULL), (3, 7, 3);
/* init */ CREATE TABLE t_2 (pkey INT PRIMARY KEY, c_1 INT);
/* init */ INSERT INTO t_2 VALUES (1, 40);
/* t1 */ BEGIN;
/* t1 */ UPDATE t_0 SET c_0 = (SELECT MAX(c_1) FROM t_2);  -- expect: affected 3
/* t1 */ SELECT COUNT(c_2) FROM t_0;                        -- expect: rows [2]
/* t1 */ COMMIT;
