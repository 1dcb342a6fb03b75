-- id: sdg-fig3d-predicate-read
-- title: TxCheck Figure 3(d): direct stmt-predicate-read dependency
-- link: https://www.usenix.org/conference/osdi23/presentation/jiang
-- sdg-order: t1.2 → t2.2
-- The select's predicate does not match the version (0, 1) the update installed: it returns
-- nothing, and must come after the update (before it, (0, 0) would match).
/* init */ CREATE TABLE t (id INT PRIMARY KEY, value INT);
/* init */ INSERT INTO t VALUES (0, 0);
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET value = 1;
/* t1 */ COMMIT;
/* t2 */ BEGIN;
/* t2 */ SELECT * FROM t WHERE value = 0;  -- expect: rows []
/* t2 */ COMMIT;
