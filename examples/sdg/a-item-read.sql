-- id: sdg-fig3a-item-read
-- title: TxCheck Figure 3(a): direct stmt-item-read dependency
-- link: https://www.usenix.org/conference/osdi23/presentation/jiang
-- sdg-edge: t1.2 -wr-> t2.2
-- sdg-order: t1.2 → t2.2
-- The update installs (0, 1); the select reads it, so it depends on the update.
/* init */ CREATE TABLE t (id INT PRIMARY KEY, value INT);
/* init */ INSERT INTO t VALUES (0, 0);
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET value = 1;
/* t1 */ COMMIT;
/* t2 */ BEGIN;
/* t2 */ SELECT * FROM t;  -- expect: rows [(0, 1)]
/* t2 */ COMMIT;
