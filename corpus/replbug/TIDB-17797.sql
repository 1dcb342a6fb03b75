-- id: TIDB-17797
-- title: The error message is not correct.
-- link: https://github.com/pingcap/tidb/issues/17797
-- dbms: TiDB v4.0.0-beta.2
-- mode: pessimistic
-- source: ReplBug thesis (paper 003), replbug/TIDB-17797.txt scenario_0
-- description: The error message is not correct.
-- The bug is the wording of the lock-wait error message; no expectation.
/* init */ CREATE TABLE t1 (
 id int not null primary key auto_increment,
 t varchar(100)
);
/* init */ INSERT INTO t1 VALUES (1, 'acdc'), (2, 'afddfdc');
/* t1 */ BEGIN PESSIMISTIC;
/* t2 */ BEGIN PESSIMISTIC;
/* t1 */ UPDATE t1 SET t='new...' WHERE id = 1;
/* t2 */ UPDATE t1 SET t='newval' WHERE id = 1;
