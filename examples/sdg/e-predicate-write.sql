-- id: sdg-fig3e-predicate-write
-- title: TxCheck Figure 3(e): direct stmt-predicate-write dependency
-- link: https://www.usenix.org/conference/osdi23/presentation/jiang
-- sdg-order: t1.2 → t2.2
-- The second update's predicate does not match the first update's version: it changes nothing,
-- and must come after the first.
/* init */ CREATE TABLE t (id INT PRIMARY KEY, value INT);
/* init */ INSERT INTO t VALUES (0, 0);
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET value = 1;
/* t1 */ COMMIT;
/* t2 */ BEGIN;
/* t2 */ UPDATE t SET value = 2 WHERE value = 0;  -- expect: affected 0
/* t2 */ COMMIT;
