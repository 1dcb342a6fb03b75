-- id: MDEV-28142
-- title: Should not throw an error on the third scenario.
-- link: https://jira.mariadb.org/browse/MDEV-28142
-- dbms: MariaDB 10.7.3
-- source: ReplBug thesis (paper 003), replbug/MDEV-28142.txt scenario_0
-- description: Should not throw an error on the third scenario.
-- The sources disagree: ReplBug says the UPDATE should not fail, DT2 lists it as a missing expected error; no expectation.
/* init */ CREATE TABLE t (c1 TEXT);
/* init */ INSERT INTO t VALUES ('a');
/* t1 */ start transaction;
/* t1 */ UPDATE t SET c1 = 'b' WHERE CAST(IF('a', '1', 1) AS SIGNED);
/* t1 */ SELECT * FROM t;
/* t1 */ COMMIT;
