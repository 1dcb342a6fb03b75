-- id: TIDB-30289
-- title: Server crashes when running a transaction
-- link: https://github.com/pingcap/tidb/issues/30289
-- dbms: TiDB v5.4.0
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-30289.txt scenario_0, setup from replbug-sql/TIDB-30289_mysql_bk.sql
-- description: The server crashes in the second test
-- bug-type: Crash; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- Crash bug: the only expectation is the liveness probe at the end.
/* init */ CREATE TABLE `t_p2n_bb` (
  `c_grbrfc` int(11) NOT NULL,
  `c_ko4ll` int(11) NOT NULL,
  PRIMARY KEY (`c_grbrfc`,`c_ko4ll`) /*T![clustered_index] NONCLUSTERED */
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
/* init */ INSERT INTO `t_p2n_bb` VALUES (-58,8),(0,5),(0,34),(2,94),(3,4),(3,55),(4,52),(6,37),(11,87),(13,33),(13,88),(14,31),(14,66),(15,18),(15,71),(18,39),(22,48),(24,5),(25,23),(26,51),(29,0),(30,41),(35,-2),(36,55),(37,77),(40,65),(40,97),(41,87),(44,4),(45,54),(45,78),(46,4),(47,41),(48,4),(49,36),(50,31),(54,0),(54,24),(54,98),(55,96),(56,0),(58,24),(67,64),(67,82),(70,77),(71,1),(79,2),(83,36),(84,89),(88,21),(89,53),(92,20),(92,38),(94,25),(95,43),(95,93),(96,1),(96,96),(98,54),(100,46);
/* init */ CREATE TABLE `t_xgqzcb` (
  `c_lc0obb` int(11) NOT NULL,
  `c_2psjsc` double DEFAULT NULL,
  `c_goymkc` double NOT NULL,
  `c_rk9c_c` text DEFAULT NULL,
  `c_xjbxpd` text DEFAULT NULL,
  `c_8eufm` double DEFAULT NULL,
  PRIMARY KEY (`c_goymkc`,`c_lc0obb`) /*T![clustered_index] NONCLUSTERED */
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
/* init */ INSERT INTO `t_xgqzcb` VALUES (23,33.17,81.42,'_yr2ib','emqyyd',25.91),(75,NULL,78.45,'afkbpd','dxvpt',52.69),(44,26.2,13.7,NULL,'vw8mdc',84.67),(24,100.8,98.56,NULL,'j8wftb',NULL),(90,83.18,59.69,'onjgm','g2f1vd',9.21),(57,35.65,46.24,'sehnxc','phtbdc',11.66),(41,26.51,95.23,'kjad_d','9bbrqc',85.94),(81,6.34,24.26,'4hilic','griewb',43.57),(4,65.62,28.37,'''jd5fmc''','hlpuyb',2147483648.1),(54,1.3,23.69,'f4wei','1wjlwd',45.28);
/* t1 */ insert into t_p2n_bb values (2, 35);
/* t1 */ delete from t_p2n_bb where exists (select 1 from t_aqzphd);
-- Liveness probe added by the corpus (not part of the PoC): after a crash this fails.
/* t2 */ SELECT 1;  -- expect: rows [1]
