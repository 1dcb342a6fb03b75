-- id: MDEV-21650
-- title: Setting sql_mode='ORACLE' makes MariaDB miss some required locks.
-- link: https://jira.mariadb.org/browse/MDEV-21650
-- dbms: MariaDB b615d275-debug
-- source: ReplBug thesis (paper 003), replbug/MDEV-21650.txt scenario_0
-- description: Setting sql_mode='ORACLE' makes MariaDB miss some required locks.
-- The description in the source is a copy of MDEV-19535; the upstream issue is an assertion failure (crash).
-- Crash bug: the only expectation is the liveness probe at the end.
/* t1 */ CREATE TABLE t1 (s DATE, e DATE, PERIOD FOR app(s,e)) ENGINE=InnoDB;
/* t1 */ ALTER TABLE t1
ADD row_start BIGINT UNSIGNED AS ROW START,
ADD row_end BIGINT UNSIGNED AS ROW END,
ADD PERIOD FOR SYSTEM_TIME(row_start,row_end),
WITH SYSTEM VERSIONING,
ADD PERIOD IF NOT EXISTS FOR app(x,y);
/* t1 */ START TRANSACTION;
/* t1 */ INSERT INTO t1 (s,e) VALUES ('2021-07-04','2024-08-18');
/* t2 */ START TRANSACTION;
/* t2 */ INSERT INTO t1 (s,e) VALUES ('2018-06-01','2021-09-15');
/* t1 */ SELECT * FROM t1 FOR SYSTEM_TIME AS OF NOW();
/* t2 */ SET innodb_lock_wait_timeout= 1, lock_wait_timeout= 1;
/* t2 */ ALTER TABLE xx;
/* t1 */ DROP TABLE t1;
-- Liveness probe added by the corpus (not part of the PoC): after a crash this fails.
/* t3 */ SELECT 1;  -- expect: rows [1]
