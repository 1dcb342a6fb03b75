-- id: sdg-fig16-blocked-delete
-- title: TxCheck Figure 16: a blocked DELETE and an UPDATE of its subquery's table (MariaDB crash)
-- link: https://www.usenix.org/conference/osdi23/presentation/jiang
-- The paper's T0 is t1 and its T1 is t2; the elided rows are ours, and the transactions end
-- with commits where MariaDB crashed. The paper gives no graph or order for this crash: a
-- DBMS without the bug must show no difference, whatever order the run's dependencies fix.
/* init */ CREATE TABLE t0 (pkey INT PRIMARY KEY, vkey INT, c0 INT);
/* init */ INSERT INTO t0 VALUES (1, 89, 40), (2, 90, 41);
/* init */ CREATE TABLE t1 (pkey INT PRIMARY KEY, vkey INT, c0 INT);
/* init */ INSERT INTO t1 VALUES (1, 10, 89), (2, 11, 7);
/* init */ CREATE TABLE t2 (pkey INT PRIMARY KEY, vkey INT, c0 INT);
/* init */ INSERT INTO t2 VALUES (1, 89, 1), (2, 95, 2);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t2 */ INSERT INTO t0 (vkey, pkey, c0) VALUES (89, 188, 40), (97, 230, 9);
/* t1 */ DELETE FROM t1 WHERE EXISTS (SELECT ref0.c0 FROM t2 AS ref0 WHERE t1.c0 NOT IN (SELECT ref3.vkey AS c0 FROM t0 AS ref2 LEFT OUTER JOIN t2 AS ref3 ON ref2.vkey = ref3.vkey WHERE ref3.pkey >= ref2.vkey));
/* t2 */ UPDATE t2 SET vkey = 99;
/* t2 */ COMMIT;
/* t1 */ COMMIT;
