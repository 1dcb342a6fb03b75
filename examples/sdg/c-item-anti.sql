-- id: sdg-fig3c-item-anti
-- title: TxCheck Figure 3(c): direct stmt-item-anti dependency
-- link: https://www.usenix.org/conference/osdi23/presentation/jiang
-- sdg-edge: t2.2 -rw-> t1.2
-- sdg-order: t2.2 → t1.2
-- The select reads (0, 0), the version the update then replaces: the update depends on it.
/* init */ CREATE TABLE t (id INT PRIMARY KEY, value INT);
/* init */ INSERT INTO t VALUES (0, 0);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t2 */ SELECT * FROM t;  -- expect: rows [(0, 0)]
/* t1 */ UPDATE t SET value = 1;
/* t1 */ COMMIT;
/* t2 */ COMMIT;
