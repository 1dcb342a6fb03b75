-- id: MDEV-29565
-- title: Two SELECTs have different results when they shouldn't
-- link: https://jira.mariadb.org/browse/MDEV-29565
-- dbms: MariaDB 10.8.3
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/MDEV-29565.txt scenario_0, setup from replbug-sql/MDEV-29565_mysql_bk.sql
-- description: The two returned selects have different number of entries.
-- bug-type: Incorrect query result; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- The SELECT and the UPDATE with the same predicate should agree on the rows; the correct rows depend on the dump, so no expectation.
/* init */ CREATE TABLE `t_g6ckkb` (
  `wkey` int(11) DEFAULT NULL,
  `pkey` int(11) NOT NULL,
  `c_onz_dc` int(11) DEFAULT NULL,
  `c_fzhuoc` text DEFAULT NULL,
  `c_qlbh3` text DEFAULT NULL,
  `c_uns3yc` double DEFAULT NULL,
  `c_caz5t` text DEFAULT NULL,
  `c_y6oqed` text DEFAULT NULL,
  `c_g99d4d` double DEFAULT NULL,
  PRIMARY KEY (`pkey`)
) ENGINE=InnoDB DEFAULT CHARSET=latin1;
/* init */ INSERT INTO `t_g6ckkb` VALUES
(20,234000,NULL,'aarauc','btldnb',37.9,'7wa_b',NULL,32.5),
(56,327000,65,'kavsib','ga9slb',54.9,NULL,'xlbvfd',79.9);
/* init */ CREATE TABLE `t_rpjlsd` (
  `wkey` int(11) DEFAULT NULL,
  `pkey` int(11) NOT NULL,
  `c_trycnb` int(11) DEFAULT NULL,
  `c_5b3h_c` text DEFAULT NULL,
  `c_pfd8ab` int(11) DEFAULT NULL,
  `c_mvgo1c` text DEFAULT NULL,
  `c_2twe2d` int(11) DEFAULT NULL,
  `c_nmcpzc` int(11) DEFAULT NULL,
  `c_loj6e` text DEFAULT NULL,
  `c_veoe1` double DEFAULT NULL,
  PRIMARY KEY (`pkey`),
  UNIQUE KEY `t_hm3u4b` (`wkey`,`pkey`,`c_trycnb`,`c_pfd8ab`,`c_2twe2d`,`c_nmcpzc`,`c_veoe1`)
) ENGINE=InnoDB DEFAULT CHARSET=latin1;
/* init */ INSERT INTO `t_rpjlsd` VALUES
(43,243000,30,NULL,8,NULL,70,NULL,'awnrab',39.83),
(57,332000,68,'_pqr1c',53,'9g7bt',NULL,75,'tb1ugc',7.62);
/* t2 */ START TRANSACTION;
/* t2 */ update t_g6ckkb set wkey = 162;
/* t1 */ START TRANSACTION;
/* t1 */ select * from t_g6ckkb;
/* t2 */ COMMIT;
/* t1 */ select * from t_rpjlsd
where t_rpjlsd.c_pfd8ab <= (select min(wkey) from t_g6ckkb);
/* t1 */ update t_rpjlsd set wkey = 63
where t_rpjlsd.c_pfd8ab <= (select min(wkey) from t_g6ckkb);
/* t1 */ select * from t_rpjlsd where wkey = 63;
/* t1 */ COMMIT;
