-- id: MDEV-25546
-- title: The partition scheduling is not respected.
-- link: https://jira.mariadb.org/browse/MDEV-25546
-- dbms: MariaDB 10.3.34
-- isolation: read-uncommitted, read-committed, repeatable-read, serializable
-- source: ReplBug thesis (paper 003), replbug/MDEV-25546.txt scenario_0
-- description: The first partition is empty, but data is placed in the second partition instead.
-- bug-type: Incorrect database state; levels where it manifested (correlation sheet): read-uncommitted, read-committed, repeatable-read, serializable
-- Uses MariaDB system-versioned partitioning and the seq_1_to_N sequence engine.
-- Correct behaviour per the report: after the ROLLBACK the history rows of the last REPLACE go to partition p0 (empty), not p1;
-- information_schema.partitions.table_rows is an estimate, so no expectation is written.
/* init */ create or replace table t1 (pk int primary key) with system versioning
partition by system_time limit 100 (
  partition p0 history,
  partition p1 history,
  partition pn current);
/* init */ insert into t1 select seq from seq_1_to_90;
/* t1 */ start transaction;
/* t1 */ replace into t1 select seq from seq_1_to_80;
/* t1 */ replace into t1 select seq from seq_1_to_70;
/* t1 */ replace into t1 select seq from seq_1_to_60;
/* t1 */ select partition_name, table_rows
from information_schema.partitions
where table_name = 't1';
/* t1 */ rollback;
/* t1 */ select partition_name, table_rows
from information_schema.partitions
where table_name = 't1';
/* t1 */ replace into t1 select seq from seq_1_to_10;
/* t1 */ select partition_name, table_rows
from information_schema.partitions
where table_name = 't1';
