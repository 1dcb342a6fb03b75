-- id: MDEV-16024
-- title: The begin_timestamp of a transaction is larger than a timestamp taken during the transaction.
-- link: https://jira.mariadb.org/browse/MDEV-16024
-- dbms: MariaDB 10.3.6
-- isolation: read-uncommitted, read-committed, repeatable-read, serializable
-- source: ReplBug thesis (paper 003), replbug/MDEV-16024.txt scenario_0
-- description: The begin_transaction actually marks the end of the transaction, not the begin.
-- bug-type: Incorrect database state; levels where it manifested (correlation sheet): read-uncommitted, read-committed, repeatable-read, serializable
-- Reads the server-wide mysql.transaction_registry (needs a server with a transaction registry);
-- the comparison begin_timestamp < @ts is what the report inspects; no expectation written.
/* init */ create or replace table t1 (
    x int(11) default null,
    row_start bigint(20) unsigned generated always as row start invisible,
    row_end bigint(20) unsigned generated always as row end invisible,
    period for system_time (row_start, row_end)
) engine=innodb with system versioning;
/* t1 */ START TRANSACTION;
/* t1 */ set @ts = now(6);
/* t1 */ insert into t1 values(1);
/* t1 */ commit;
/* t1 */ select @ts;
/* t1 */ select * from mysql.transaction_registry;
/* t1 */ select (select begin_timestamp from mysql.transaction_registry) < @ts;
