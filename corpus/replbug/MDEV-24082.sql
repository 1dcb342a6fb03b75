-- id: MDEV-24082
-- title: This fails with 'Cannot execute statement in a READ ONLY transaction', despite only attempting to update the temporary table. However, if you modify the UPDATE to use a subquery instead of a join, it works.
-- link: https://jira.mariadb.org/browse/MDEV-24082
-- dbms: MariaDB 10.1.38
-- isolation: read-uncommitted, read-committed, repeatable-read, serializable
-- source: ReplBug thesis (paper 003), replbug/MDEV-24082.txt scenario_0
-- description: This fails with 'Cannot execute statement in a READ ONLY transaction', despite only attempting to update the temporary table. However, if you modify the UPDATE to use a subquery instead of a join, it works.
-- bug-type: Unexpected error; levels where it manifested (correlation sheet): read-uncommitted, read-committed, repeatable-read, serializable
-- buggy: The multi-table UPDATE of the temporary table failed with 'Cannot execute statement in a READ ONLY transaction' (the subquery form, scenario_1, works).
/* init */ CREATE TABLE p (id int unsigned NOT NULL PRIMARY KEY);
/* init */ INSERT INTO p VALUES (2);
/* t1 */ BEGIN;
/* t1 */ CREATE TEMPORARY TABLE t (id int unsigned NOT NULL PRIMARY KEY,flag tinyint NOT NULL DEFAULT 0);
/* t1 */ INSERT INTO t (id) VALUES (1),(2),(3),(4),(5);
/* t1 */ START TRANSACTION READ ONLY;
/* t1 */ UPDATE t INNER JOIN p USING (id) SET t.flag=1;  -- expect: affected 1
/* t1 */ COMMIT;
