-- id: TIDB-34222-1
-- title: Operation fails when running in transaction
-- link: https://github.com/pingcap/tidb/issues/34222
-- dbms: TiDB v6.1.0
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-34222.txt scenario_1, setup from replbug-sql/TIDB-34222_mysql_bk.sql
-- description: Second scenario fails with "BIGING UNSIGNED value out of range"
-- bug-type: Unexpected error; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- buggy: Inside the transaction the SELECT on the just-emptied table failed with 'BIGINT UNSIGNED value is out of range'.
/* init */ CREATE TABLE `t_8vocx` (
  `wkey` int(11) DEFAULT NULL,
  `pkey` int(11) NOT NULL,
  `c_sjd8xc` int(11) DEFAULT NULL,
  `c_zwkrwc` double DEFAULT NULL,
  `c_yh4m9d` int(11) DEFAULT NULL,
  PRIMARY KEY (`pkey`) /*T![clustered_index] CLUSTERED */
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
/* init */ INSERT INTO `t_8vocx` VALUES (5,23000,NULL,90.72,NULL),(5,24000,NULL,NULL,NULL),(5,25000,NULL,60.42,NULL),(5,26000,NULL,95.24,NULL),(10,45000,NULL,39.8,NULL),(10,46000,NULL,4.2,NULL),(10,47000,NULL,52.69,NULL),(12,50000,NULL,NULL,NULL),(15,58000,NULL,55.38,NULL);
/* init */ CREATE TABLE `t_f70bwd` (
  `wkey` int(11) DEFAULT NULL,
  `pkey` int(11) NOT NULL,
  `c_2ipzoc` int(11) DEFAULT NULL,
  `c_6ehu` text DEFAULT NULL,
  `c_ssd3w` double DEFAULT NULL,
  `c_o_hxmd` text DEFAULT NULL,
  PRIMARY KEY (`pkey`) /*T![clustered_index] CLUSTERED */
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
/* init */ INSERT INTO `t_f70bwd` VALUES (2,13000,NULL,'7cdhgb',54.31,'7xfgsb'),(3,14000,NULL,'e37w_c',9.22,'oqn4md'),(3,15000,NULL,'mvkgvb',35.1,'djsqnc'),(3,16000,NULL,NULL,46.68,'znd67'),(3,17000,NULL,NULL,58.9,'4uphgc'),(3,18000,NULL,NULL,1.5,'4dyoad'),(3,19000,NULL,'a4_smb',66.62,'9z8nsb'),(18,66000,NULL,'k5kssd',NULL,NULL),(18,67000,NULL,'p_iwyd',49.9,'3_x7pb');
/* init */ CREATE TABLE `t_ux4d2b` (
  `wkey` int(11) DEFAULT NULL,
  `pkey` int(11) NOT NULL,
  `c_cqni2c` int(11) DEFAULT NULL,
  `c__k0iqd` double DEFAULT NULL,
  PRIMARY KEY (`pkey`) /*T![clustered_index] CLUSTERED */
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
/* init */ INSERT INTO `t_ux4d2b` VALUES (4,20000,NULL,98.14),(4,21000,NULL,64.33),(4,22000,NULL,99.38),(8,34000,NULL,NULL),(8,35000,NULL,NULL),(8,36000,NULL,NULL),(8,37000,NULL,NULL),(8,38000,NULL,NULL),(8,39000,NULL,NULL),(11,48000,NULL,63.93),(11,49000,NULL,43.56),(13,51000,NULL,96.52),(13,52000,NULL,61.23),(13,53000,NULL,60.95),(13,54000,NULL,13.91),(13,55000,NULL,59.21);
/* init */ CREATE TABLE `t_xa9msd` (
  `wkey` int(11) DEFAULT NULL,
  `pkey` int(11) NOT NULL,
  `c_g7yt1c` double DEFAULT NULL,
  `c_snku` text DEFAULT NULL,
  PRIMARY KEY (`pkey`) /*T![clustered_index] CLUSTERED */
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
/* init */ INSERT INTO `t_xa9msd` VALUES (1,11000,NULL,'lemywc'),(1,12000,NULL,'a0isuc'),(6,27000,NULL,'vcxe_d'),(6,28000,NULL,'l8rkub'),(6,29000,NULL,NULL),(7,30000,NULL,'djkeab'),(7,31000,37.33,'eh8wg'),(7,32000,8.96,'chzoub'),(7,33000,31.4,'vze5k'),(9,40000,NULL,NULL),(9,41000,61.9,'wa06zc'),(9,42000,12.15,'hwy2xb'),(9,43000,83.66,'fdsbmb'),(9,44000,70.36,'zjnr0d'),(14,56000,11.44,'1uwlbd'),(14,57000,35.72,NULL),(16,59000,46.2,'3n4cxc'),(16,60000,50.49,'egccjd'),(16,61000,76.62,'iaxsnc'),(16,62000,98.98,'q7pmfd'),(17,63000,91.99,'oshk_c'),(17,64000,41.5,'ngxceb'),(17,65000,8.24,'ttrrk');
/* t1 */ START TRANSACTION;
/* t1 */ delete from t_xa9msd;
/* t1 */ select * from t_xa9msd as ref_0
where (63 & 72) - case when ref_0.wkey is NULL then 66 else 100 end > 88;  -- expect: rows []
/* t1 */ commit;
