-- id: mariadb-rc-foreign-key-check-out-of-reach
-- title: A parent row's DELETE whose foreign key check depends on its transaction's earlier DELETE of the child
-- Reduced from `txhunt fuzz --target mariadb --duration 90s --seed 33`, case 348 (a bug
-- candidate before). t4 deletes the child row, then the parent. No record shows that the
-- parent's DELETE read t2 (its foreign key check), so a sequential order may put it first,
-- where the check fails: which rows the check read is out of reach, not a bug.
-- Used by crates/txhunt-oracle/tests/sdg.rs.
/* init */ CREATE TABLE t (k INT NOT NULL, PRIMARY KEY (k));
/* init */ CREATE TABLE t2 (v INT, FOREIGN KEY (v) REFERENCES t(k));
/* init */ INSERT INTO t (k) VALUES (1);
/* init */ INSERT INTO t2 (v) VALUES (1);
/* t4 */ BEGIN;
/* t4 */ DELETE FROM t2;
/* t4 */ DELETE FROM t;
/* t5 */ SELECT * FROM t2;
/* t4 */ COMMIT;
