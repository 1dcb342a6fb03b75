-- id: TIDB-25176
-- title: Setting tidb_snapshot breaks the isolation guarantees.
-- link: https://github.com/pingcap/tidb/issues/25176
-- dbms: TiDB v4.0.7
-- isolation: repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-25176.txt scenario_0
-- description: Setting tidb_snapshot breaks the isolation guarantees.
-- bug-type: Incorrect query result; levels where it manifested (correlation sheet): repeatable-read
-- The table name test.ttt is rewritten to ttt (txhunt runs each scenario in a database of its own).
-- TiDB-only (tidb_snapshot); no expectation.
/* init */ create table ttt (id int primary key, a int);
/* init */ insert into ttt values (1, 1);
/* t1 */ begin;
/* t2 */ update ttt set a=2 where id=1;
/* t1 */ set @@tidb_snapshot=TIMESTAMP(NOW());
/* t1 */ select a from ttt where id=1;
/* t1 */ select a from ttt where id=1 for update;
/* t1 */ select a from ttt where id=1;
/* t1 */ commit;
