-- id: mariadb-rc-behaviour-not-shown
-- title: Two documented behaviours had their occasion, each variant that would show them takes another path, and a statement-by-statement replay shows the run
-- dbms: MariaDB 10.11
-- isolation: read-committed
-- Reduced from `txhunt fuzz --target mariadb --isolation read-committed --seed 2026`, case 1328.
-- t3's UPDATE runs beside t2's uncommitted REPLACE into t1 (semi-consistent read's occasion)
-- and its subquery reads t0 without locks beside t1's uncommitted INSERT (unlocked source
-- reads' occasion): it updates nothing, while after t1 (which commits first) it would update
-- five rows. Both variants that would show a behaviour make t3 wait for t2, which never ends:
-- t3 is left unfinished there, so neither behaviour is shown by its own variant. InnoDB's
-- READ COMMITTED at the statement level does: each statement, run alone on the state
-- committed when it started, answers as in the run (t3's UPDATE before t1's commit), and the
-- changes in commit order give the final state; the finding is permissible and says that
-- the variants could not show it.
/* init */ CREATE TABLE t0 (a0 INT NOT NULL, a1 TINYINT, a2 DOUBLE, a3 VARCHAR(10) NOT NULL, a4 INT DEFAULT -17, a5 DECIMAL(8, 2) NOT NULL CHECK ((a5 >= -37)), PRIMARY KEY (a0));
/* init */ CREATE TABLE t1 (b0 DOUBLE NOT NULL, b1 TINYINT, b2 VARCHAR(10) NOT NULL, PRIMARY KEY (b2));
/* init */ INSERT INTO t1 (b0, b1, b2) VALUES (16.5, 0, 'abeX'), (4.5, 0, 'ebY'), (3.25, 0, 'dc'), (1.5, 1, 'abc'), (-3.25, 0, ''), (15.5, 1, 'cX'), (1.75, 0, 'b'), (-4.5, 0, 'bbe'), (7.5, 1, 'eYc'), (-8.75, 1, 'bdcd'), (20.0, 1, 'Xbbe');
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t3 */ BEGIN;
/* t2 */ REPLACE INTO t1 (b0, b1, b2) VALUES (-10.0, 0, 'beXe'), (-8.75, 0, 'eY'), (1.75, 1, 'eXb');
/* t1 */ INSERT INTO t0 (a0, a1, a2, a3, a5) VALUES (41, 1, 12.5, '', 686.07), (-9, 1, 12.5, 'dYbY', 764.33), (50, 1, 12.5, 'da', 686.07);
/* t3 */ UPDATE t1 SET b0 = 8.5, b1 = 1 WHERE (b1 IN (SELECT a1 FROM t0));
/* t1 */ COMMIT;
/* t3 */ COMMIT;
