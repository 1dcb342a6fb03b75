-- id: TIDB-21447
-- title: read using different executors in transaction result in different results
-- link: https://github.com/pingcap/tidb/issues/21447
-- dbms: TiDB v4.0.8
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-21447.txt scenario_0
-- description: read using different executors in transaction result in different results
-- bug-type: Incorrect query result; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- Point-get and table-scan reads in one transaction disagree; which value is right at repeatable-read is DBMS-specific, so no expectation.
/* init */ CREATE TABLE `t1` ( `id` int(11) primary key, `name` varchar(20) DEFAULT NULL );
/* init */ insert into t1 values(1,'abc');
/* t1 */ begin;
/* t2 */ begin;
-- Comment from the source PoC on the next statement: the result is "1 abc" before the update commit in t1
/* t2 */ select * from t1 where id  = 1;
/* t1 */ UPDATE t1 SET name='xyz' WHERE id=1;
/* t1 */ commit;
-- Comment from the source PoC on the next statement: update the same row with same value using point get
/* t2 */ UPDATE t1 SET name='xyz' WHERE id=1;
-- Comment from the source PoC on the next statement: the result is "1, abc"
/* t2 */ select * from t1;
-- Comment from the source PoC on the next statement: the result is "1, xyz"
/* t2 */ select * from t1 where id = 1 ;
/* t2 */ commit;
