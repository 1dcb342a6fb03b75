-- id: sdg-fig3g-value-write
-- title: TxCheck Figure 3(g): direct stmt-value-write dependency
-- link: https://www.usenix.org/conference/osdi23/presentation/jiang
-- sdg-edge: t1.2 -wr-> t2.2
-- sdg-order: t1.2 → t2.2
-- The insert's value is computed from the version (0, 1) the update installed.
/* init */ CREATE TABLE t (id INT PRIMARY KEY, value INT);
/* init */ INSERT INTO t VALUES (0, 0);
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET value = 1;
/* t1 */ COMMIT;
/* t2 */ BEGIN;
/* t2 */ INSERT INTO t VALUES (1, (SELECT MIN(value) FROM t));  -- expect: affected 1
/* t2 */ COMMIT;
