-- id: TIDB-36928
-- title: Operation fails when running in transaction
-- link: https://github.com/pingcap/tidb/issues/36928
-- dbms: TiDB v6.1.0
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-36928.txt scenario_0, setup from replbug-sql/TIDB-36928_mysql_bk.sql
-- description: The two tests give a different result, second tests throws "Truncated incorrect DOUBLE value".
-- bug-type: Unexpected error; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- Differential pair: scenario_0 and scenario_1 of this bug should give the same results; the corpus cannot state the correct rows without recomputing them from the dump, so no expectation is written. Compare <ID>.sql with <ID>-1.sql.
/* init */ CREATE TABLE `t_kkdrvd` (
  `wkey` int(11) DEFAULT NULL,
  `pkey` int(11) NOT NULL,
  `c__8xz3b` text DEFAULT NULL,
  `c_4wxknd` double DEFAULT NULL,
  `c_ej6xe` double DEFAULT NULL,
  `c_ikl9s` text DEFAULT NULL,
  `c_wimsj` text DEFAULT NULL,
  `c_uv5e9c` int(11) DEFAULT NULL,
  `c_c_9yqc` text DEFAULT NULL,
  `c_w9vqqb` int(11) DEFAULT NULL,
  PRIMARY KEY (`pkey`) /*T![clustered_index] CLUSTERED */
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
/* init */ INSERT INTO `t_kkdrvd` VALUES (2,14000,'otljo',NULL,33.4,'xs_xhc','saydqd',NULL,'h7khr',NULL),(2,15000,'8megkc',62.26,72.25,'hop2fb','00boec',NULL,'j0e5vd',NULL),(2,16000,'cbe1q',91.93,92.71,'ggxvtd',NULL,NULL,'_h6ldd',NULL),(2,17000,'k7hgad',26.19,NULL,'6kctzd','sldkab',NULL,'tngocc',NULL),(6,35000,'d5clk',62.28,40.94,'ddgutd',NULL,NULL,'wpb2s',NULL),(6,36000,'mu7dgc',62.27,73.3,'5xfcsc',NULL,NULL,'yuqvjb',NULL),(6,37000,'jowpp',89.8,72.37,'ou9tp',NULL,NULL,'cpx88',NULL),(6,38000,'hmbg8d',93.26,35.83,'uumeg',NULL,NULL,'h5et3',NULL),(6,39000,'6gszsc',38.43,53.4,'ot2iv',NULL,NULL,'nrae7d',NULL);
/* init */ CREATE TABLE `t_pjxdzd` (
  `wkey` int(11) DEFAULT NULL,
  `pkey` int(11) NOT NULL,
  `c_nemsqb` int(11) DEFAULT NULL,
  PRIMARY KEY (`pkey`) /*T![clustered_index] CLUSTERED */
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
/* init */ INSERT INTO `t_pjxdzd` VALUES (1,11000,NULL),(1,12000,NULL),(1,13000,NULL),(5,27000,NULL),(5,28000,NULL),(5,29000,NULL),(5,30000,NULL),(5,31000,NULL),(5,32000,NULL),(5,33000,NULL),(5,34000,NULL),(7,40000,NULL),(7,41000,NULL),(7,42000,NULL),(8,43000,NULL),(8,44000,NULL),(8,45000,NULL),(8,46000,NULL),(8,47000,NULL),(8,48000,NULL),(8,49000,NULL),(8,50000,NULL),(12,67000,NULL),(12,68000,NULL),(12,69000,NULL),(12,70000,NULL),(13,71000,NULL),(13,72000,NULL),(13,73000,NULL),(13,74000,NULL),(13,75000,NULL),(13,76000,NULL),(13,77000,NULL),(13,78000,NULL),(14,79000,NULL),(14,80000,NULL),(14,81000,NULL),(14,82000,NULL),(14,83000,NULL),(14,84000,NULL),(14,85000,NULL);
/* init */ CREATE TABLE `t_uxamvc` (
  `wkey` int(11) DEFAULT NULL,
  `pkey` int(11) NOT NULL,
  `c_wbuaud` int(11) DEFAULT NULL,
  `c_sk7x_d` int(11) DEFAULT NULL,
  PRIMARY KEY (`pkey`) /*T![clustered_index] CLUSTERED */,
  KEY `t_m42c` (`pkey`,`c_wbuaud`,`c_sk7x_d`),
  KEY `t_zfmvd` (`wkey`,`pkey`,`c_wbuaud`,`c_sk7x_d`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
/* init */ INSERT INTO `t_uxamvc` VALUES (3,18000,NULL,NULL),(3,19000,NULL,NULL),(3,20000,NULL,NULL),(4,21000,NULL,NULL),(4,22000,NULL,NULL),(4,23000,NULL,NULL),(4,24000,NULL,NULL),(4,25000,NULL,NULL),(4,26000,NULL,NULL),(9,51000,NULL,NULL),(9,52000,NULL,NULL),(9,53000,NULL,NULL),(9,54000,NULL,NULL),(9,55000,NULL,NULL),(10,56000,NULL,NULL),(10,57000,NULL,NULL),(10,58000,NULL,NULL),(10,59000,NULL,NULL),(10,60000,NULL,NULL),(11,61000,NULL,NULL),(11,62000,NULL,NULL),(11,63000,NULL,NULL),(11,64000,NULL,NULL),(11,65000,NULL,NULL),(11,66000,NULL,NULL),(15,86000,NULL,NULL),(15,87000,NULL,NULL),(15,88000,NULL,NULL),(15,89000,NULL,NULL),(15,90000,NULL,NULL),(15,91000,NULL,NULL),(15,92000,NULL,NULL);
/* t1 */ delete from t_pjxdzd;
/* t1 */ select * from t_kkdrvd
where LOG(t_kkdrvd.c_4wxknd) not in (
select 1 from t_pjxdzd as ref_0
where 10 between (null % CRC32('lcc8id' || 'n_5gbd'))
and case when ref_0.wkey is NULL then 49 else (49 / 45) end);
/* t1 */ update t_kkdrvd set
wkey = 92
where LOG(t_kkdrvd.c_4wxknd) not in (
select 1 from t_pjxdzd as ref_0
where 10 between (null % CRC32('lcc8id' || 'n_5gbd'))
and case when ref_0.wkey is NULL then 49 else (49 / 45) end);
