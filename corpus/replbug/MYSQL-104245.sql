-- id: MYSQL-104245
-- title: There are too many row locks issued.
-- link: https://bugs.mysql.com/bug.php?id=104245
-- dbms: MySQL 5.7.34
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/MYSQL-104245.txt scenario_0
-- description: There are 10 row locks despite only having 5 items in the table.
-- bug-type: Unnecessary blocking; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- The extra row locks are only visible in SHOW ENGINE INNODB STATUS; no expectation.
/* init */ CREATE TABLE `t1` (
  `c1` bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  `c2` bigint(20) NOT NULL,
  `c3` bigint(20) NOT NULL,
  `c4` bigint(20) NOT NULL,
  `c5` bigint(20) NOT NULL,
  PRIMARY KEY (`c1`),
  UNIQUE KEY `UNIQUE_KEY` (`c2`,`c3`,`c4`)
) ENGINE=InnoDB;
/* init */ INSERT IGNORE INTO t1 (c2, c3, c4, c5) values (1,1,1,1);
/* t1 */ START TRANSACTION;
/* t1 */ INSERT IGNORE INTO t1 (c2, c3, c4, c5) values (1,1,1,1),(1,1,1,1),(1,1,1,1),(1,1,1,1),(1,1,1,1);
/* t1 */ SHOW ENGINE INNODB STATUS;
/* t1 */ SELECT * FROM t1;
/* t1 */ COMMIT;
