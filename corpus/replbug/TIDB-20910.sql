-- id: TIDB-20910
-- title: admin check table t should work
-- link: https://github.com/pingcap/tidb/issues/20910
-- dbms: TiDB 45571c5e
-- source: ReplBug thesis (paper 003), replbug/TIDB-20910.txt scenario_0
-- description: admin check table t should work
-- buggy: The UPDATE creating a duplicate c = 2 was committed although a unique index on c was added concurrently; ADMIN CHECK TABLE then failed.
/* init */ create table t (id int auto_increment primary key, c int);
/* init */ insert into t (id, c) values (1, 2), (3, 4);
/* t1 */ begin;
/* t2 */ alter table t add unique index uk(c);
/* t1 */ update t set c = 2 where id = 3;
/* t1 */ commit;
/* t2 */ admin check table t;  -- expect: ok
-- expect final: t = [(1, 2), (3, 4)]
