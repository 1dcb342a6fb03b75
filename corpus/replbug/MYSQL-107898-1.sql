-- id: MYSQL-107898-1
-- title: Two SELECTs have different results when they shouldn't
-- link: https://bugs.mysql.com/bug.php?id=107898
-- dbms: MySQL 8.0.23
-- isolation: read-uncommitted, read-committed, repeatable-read, serializable
-- source: ReplBug thesis (paper 003), replbug/MYSQL-107898.txt scenario_1, setup from replbug-sql/MYSQL-107898_mysql_bk.sql
-- description: The two returned tables should be equal.
-- bug-type: Incorrect query result; levels where it manifested (correlation sheet): read-uncommitted, read-committed, repeatable-read, serializable
-- Differential pair: scenario_0 and scenario_1 of this bug should give the same results; the corpus cannot state the correct rows without recomputing them from the dump, so no expectation is written. Compare <ID>.sql with <ID>-1.sql.
/* init */ CREATE TABLE `t_8fhx8c` (
  `wkey` int DEFAULT NULL,
  `pkey` int NOT NULL,
  `c_0byzvd` int DEFAULT NULL,
  `c_iskisc` double DEFAULT NULL,
  `c_zov5kd` text,
  `c_gcqkxd` int DEFAULT NULL,
  `c_qhs9nb` double DEFAULT NULL,
  PRIMARY KEY (`pkey`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
/* init */ INSERT INTO `t_8fhx8c` VALUES (2,14000,97,84.74,'wa2sbb',95,89.41),(2,15000,86,21.11,'zronkb',55,45.8),(2,16000,14,19.5,'c2gzzd',32,85.98),(2,17000,23,33.44,'mobljd',66,23.38),(3,18000,50,NULL,'pturvb',12,80.12),(3,19000,12,3.67,'if_bxd',1,52.88),(3,20000,43,23.93,NULL,20,9.64),(3,21000,66,53.85,'n_wqod',1,86.49),(3,22000,35,32.75,'0mbqjc',44,66.48),(4,23000,14,NULL,'ucm2td',8,35.2),(4,24000,46,29.29,'tkrorb',13,23.69),(4,25000,57,58.4,'la5xxd',42,80.53),(4,26000,11,71.71,'emyb3b',32,19.24),(4,27000,18,16.46,'cuf0n',62,91.78),(4,28000,90,80.69,'cgded',75,66.99),(4,29000,42,4.37,'yuhutd',61,11.3),(4,30000,63,97.37,'shdmzb',3,44.82),(10,59000,33,5.21,NULL,NULL,81.83),(10,60000,95,35.57,NULL,NULL,26.78),(10,61000,24,13.46,NULL,NULL,97.26),(10,62000,35,84.89,NULL,NULL,44.5),(10,63000,83,69.34,NULL,NULL,14.19),(10,64000,26,29.59,NULL,NULL,60.27),(11,65000,8,NULL,'8ppsvb',84,97.47),(11,66000,55,NULL,'naaqhd',38,4.17),(11,67000,78,NULL,'sm4vmb',60,98.6),(12,68000,98,24.37,'y9oowb',NULL,79.54),(12,69000,97,50.1,'qqabc',NULL,62.34),(12,70000,18,87.87,'wkf9h',NULL,76.7),(12,71000,37,5.2,'npgb8',NULL,95.63),(12,72000,48,83.8,'xhx3rb',NULL,51.53),(12,73000,30,5.4,'yfdncd',NULL,33.34),(12,74000,82,10.2,'jmvq9d',NULL,63.46),(12,75000,94,57.76,'l1ei4c',NULL,58.27);
/* init */ CREATE TABLE `t_brmeob` (
  `wkey` int DEFAULT NULL,
  `pkey` int NOT NULL,
  `c_vpj55` int DEFAULT NULL,
  `c_ezxgi` int DEFAULT NULL,
  `c_mlxs4d` text,
  `c_ysp8wc` double DEFAULT NULL,
  `c_mborzd` text,
  PRIMARY KEY (`pkey`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
/* init */ INSERT INTO `t_brmeob` VALUES (5,31000,95,22,'d3irqc',81.56,'dozocc'),(5,32000,36,41,'ojqfhd',39.82,'u_maoc'),(5,33000,86,95,'sfvf1',43.56,'_ec_7b'),(5,34000,43,74,NULL,14.5,'f_ilnb'),(5,35000,45,5,'clrj1c',9.82,'h_db2b'),(5,36000,49,39,'orbasd',NULL,'aawmcc'),(5,37000,17,42,'xcwue',81.16,'ixroic'),(5,38000,20,49,'0cinc',9.12,'yrpufc'),(6,39000,NULL,100,'vigfzb',34.54,'qadkhd'),(6,40000,NULL,26,'am2ghc',NULL,'ykxbpc'),(6,41000,NULL,68,'p_znr',NULL,'0jfmbd'),(7,42000,72,63,'2ven6d',82.3,NULL),(7,43000,12,93,'5fv_gc',64.92,NULL),(7,44000,54,98,'k0bqqd',71.76,NULL),(7,45000,88,10,'_tjixd',65.24,NULL),(7,46000,36,58,'gjevrc',21.67,NULL),(8,47000,82,86,NULL,83.98,'sbf_c'),(8,48000,64,73,NULL,57.28,'tyzlkb'),(8,49000,79,67,NULL,16.56,'pmcmx'),(8,50000,65,30,NULL,19.56,'qguoxd'),(8,51000,90,46,NULL,60.89,'igh4bb'),(9,52000,35,18,NULL,NULL,NULL),(9,53000,99,79,NULL,16.5,NULL),(9,54000,12,51,NULL,19.77,NULL),(9,55000,80,82,NULL,NULL,NULL),(9,56000,60,40,NULL,74.85,NULL),(9,57000,35,92,NULL,NULL,NULL),(9,58000,39,98,NULL,1.63,NULL);
/* init */ CREATE TABLE `t_f05dqb` (
  `wkey` int DEFAULT NULL,
  `pkey` int NOT NULL,
  `c_zbpbl` double DEFAULT NULL,
  `c_0barzc` double DEFAULT NULL,
  `c_u6jxmc` text,
  PRIMARY KEY (`pkey`),
  KEY `t_2p2x4c` (`wkey`,`c_0barzc`),
  KEY `t_mfj2sb` (`pkey`,`c_zbpbl`,`c_0barzc`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
/* init */ INSERT INTO `t_f05dqb` VALUES (1,11000,NULL,NULL,'vxzyj'),(1,12000,NULL,98.58,'dhzkmc'),(1,13000,NULL,81.86,NULL);
/* t1 */ START TRANSACTION;
/* t1 */ select *
from
t_8fhx8c as ref_1
where ref_1.c_0byzvd not in (
select
nullif(19, 19) as c0
from
(select
ref_2.c_zov5kd as c0
from
t_8fhx8c as ref_2
) as subq_0
window w_u6cwrd as (partition by subq_0.c0));
/* t1 */ COMMIT;
