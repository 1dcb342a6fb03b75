-- id: TIDB-33315
-- title: Nill pointer dereference
-- link: https://github.com/pingcap/tidb/issues/33315
-- dbms: TiDB v5.4.0
-- isolation: repeatable-read
-- mode: pessimistic
-- source: ReplBug thesis (paper 003), replbug/TIDB-33315.txt scenario_0
-- description: conn 1 should get an empty set
-- bug-type: Incorrect query result; levels where it manifested (correlation sheet): repeatable-read
-- buggy: After its blocked DELETE resumed, conn 1 still saw the row (2, 2).
/* init */ CREATE TABLE t (c1 INT PRIMARY KEY, c2 INT);
/* init */ INSERT INTO t (c1, c2) VALUES (1, 1);
/* t1 */ BEGIN PESSIMISTIC;
/* t1 */ UPDATE t SET c1=2, c2=2;
/* t2 */ BEGIN PESSIMISTIC;
/* t2 */ DELETE FROM t;
/* t1 */ COMMIT;
/* t2 */ SELECT * FROM t;  -- expect: rows []
/* t2 */ COMMIT;
-- expect final: t = []
