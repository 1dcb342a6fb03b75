-- id: TIDB-19063
-- title: Duplicate keys are ignored in insert statements.
-- link: https://github.com/pingcap/tidb/issues/19063
-- dbms: TiDB bdc59e6e
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-19063.txt scenario_0
-- description: Duplicate key is ignored in insert The insert statement should fail.
-- bug-type: Incorrect database state; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- buggy: The ON DUPLICATE KEY UPDATE that moves c_int onto the existing unique value 22 did not fail.
/* init */ create table t ( c_int int, c_string varchar(40) collate utf8mb4_bin , primary key (c_string), unique key (c_int));
/* t1 */ begin;
/* t1 */ replace into t values (22, 'gold witch'), (24, 'gray singer'), (21, 'silver sight');
/* t1 */ commit;
/* t1 */ begin;
/* t1 */ insert into t values (21,'black warlock'), (22, 'dark sloth'), (21,  'cyan song') on duplicate key update c_int = c_int + 1, c_string = concat(c_int, ':', c_string);  -- expect: error constraint
/* t1 */ commit;
/* t1 */ select * from t;
/* t1 */ drop table t;
