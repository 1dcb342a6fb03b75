-- id: sdg-fig3b-item-write
-- title: TxCheck Figure 3(b): direct stmt-item-write dependency
-- link: https://www.usenix.org/conference/osdi23/presentation/jiang
-- sdg-edge: t1.2 -ww-> t2.2
-- sdg-order: t1.2 → t2.2
-- The second update overwrites the version (0, 1) the first installed.
/* init */ CREATE TABLE t (id INT PRIMARY KEY, value INT);
/* init */ INSERT INTO t VALUES (0, 0);
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET value = 1;
/* t1 */ COMMIT;
/* t2 */ BEGIN;
/* t2 */ UPDATE t SET value = 2;  -- expect: affected 1
/* t2 */ COMMIT;
