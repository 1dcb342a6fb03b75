-- id: TIDB-23380
-- title: processlist.txnstart is missing when tidb_snapshot is set
-- link: https://github.com/pingcap/tidb/issues/23380
-- dbms: TiDB 9c48b24c
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-23380.txt scenario_0
-- description: processlist.txnstart is missing when tidb_snapshot is set
-- bug-type: Incorrect query result; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- TiDB-only (tidb_snapshot, processlist.txnstart); no expectation.
/* init */ create table t (id int primary key, v int, index iv (v));
/* init */ insert into t values (1, 10), (2, 20), (3, 30), (4, 40);
/* t1 */ set tidb_snapshot=now();
/* t1 */ begin;
/* t1 */ select txnstart from information_schema.processlist;
