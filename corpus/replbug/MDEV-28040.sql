-- id: MDEV-28040
-- title: The locks are not released in a timely manner. This does not seem to be a bug though.
-- link: https://jira.mariadb.org/browse/MDEV-28140
-- dbms: MariaDB 10.8.3
-- source: ReplBug thesis (paper 003), replbug/MDEV-28040.txt scenario_0
-- description: The locks are not released in a timely manner. This does not seem to be a bug though.
-- The reporters themselves say this "does not seem to be a bug"; no expectation.
/* init */ CREATE TABLE t(c1 BLOB NOT NULL, c2 TEXT);
/* init */ INSERT IGNORE INTO t VALUES (NULL, NULL), (NULL, 'aaa');
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET c2='test' WHERE c1;
/* t2 */ BEGIN;
/* t2 */ UPDATE t SET c2 = 'def';
/* t1 */ COMMIT;
/* t2 */ COMMIT;
