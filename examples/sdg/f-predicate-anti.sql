-- id: sdg-fig3f-predicate-anti
-- title: TxCheck Figure 3(f): direct stmt-predicate-anti dependency
-- link: https://www.usenix.org/conference/osdi23/presentation/jiang
-- sdg-order: t2.2 → t1.2
-- The select's predicate would match the version (0, 1) the update installs; it returns
-- nothing, so it read before the update.
/* init */ CREATE TABLE t (id INT PRIMARY KEY, value INT);
/* init */ INSERT INTO t VALUES (0, 0);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t2 */ SELECT * FROM t WHERE value = 1;  -- expect: rows []
/* t1 */ UPDATE t SET value = 1;
/* t1 */ COMMIT;
/* t2 */ COMMIT;
