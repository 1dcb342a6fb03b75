-- id: TIDB-26973
-- title: The name of tables and handles are not parsed in DEBUG table.
-- link: https://github.com/pingcap/tidb/issues/26973
-- dbms: TiDB v5.2.0-alpha-1a54708a7
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-26973.txt scenario_0
-- description: The name of tables and handles are not parsed in DEBUG table.
-- bug-type: Incorrect query result; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- The bug is in information_schema.DEADLOCKS (TiDB); no expectation.
/* init */ create table t (a int primary key, b int) partition by range(a) (PARTITION p0 VALUES LESS THAN (2), PARTITION p1 VALUES LESS THAN (4),
    PARTITION p2 VALUES LESS THAN (MAXVALUE));
/* init */ insert into t values (1, 10), (2, 20), (3, 30);
/* t1 */ begin;
/* t2 */ begin;
/* t1 */ update t set a=10 where a=1;
/* t2 */ update t set b=11 where a=2;
/* t1 */ update t set b=12 where a=2;
/* t2 */ update t set b=13 where a=1;
/* t1 */ SELECT * FROM INFORMATION_SCHEMA.DEADLOCKS;
