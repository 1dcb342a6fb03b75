-- id: TIDB-20002
-- title: The "admin check table t" query crashes with an ugly error.
-- link: https://github.com/pingcap/tidb/issues/20002
-- dbms: TiDB fa6baa9f
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-20002.txt scenario_0
-- description: admin check table t should work
-- bug-type: Unexpected error; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- buggy: ADMIN CHECK TABLE reported an index inconsistency.
/* init */ set @@tidb_enable_clustered_index = 1;
/* init */ create table t ( c_int int, c_str varchar(40), c_datetime datetime, primary key(c_str) , unique key(c_int), unique key(c_datetime)  );
/* init */ insert into t values (1, 'laughing hertz', '2020-04-27 20:29:30'), (2, 'sharp yalow', '2020-04-01 05:53:36'), (3, 'pedantic hoover', '2020-03-10 11:49:00');
/* t1 */ begin;
/* t1 */ update t set c_str = 'amazing herschel' where c_int = 3;
/* t1 */ select c_int, c_str, c_datetime from t where c_datetime between '2020-01-09 22:00:28' and '2020-04-08 15:12:37';
/* t1 */ commit;
/* t1 */ admin check table t;  -- expect: ok
/* t1 */ select * from t where c_datetime = '2020-03-10 11:49:00';
