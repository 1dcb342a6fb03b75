-- id: MDEV-29118
-- title: The server crashes
-- link: https://jira.mariadb.org/browse/MDEV-29118
-- dbms: MariaDB 10.8.3
-- isolation: read-uncommitted, read-committed, repeatable-read, serializable
-- source: ReplBug thesis (paper 003), replbug/MDEV-29118.txt scenario_0, setup from replbug-sql/MDEV-29118_mysql_bk.sql
-- description: This makes MariaDB crash.
-- bug-type: Crash; levels where it manifested (correlation sheet): read-uncommitted, read-committed, repeatable-read, serializable
-- Crash bug: the only expectation is the liveness probe at the end.
/* init */ CREATE TABLE `t_davsbd` (
  `wkey` int(11) DEFAULT NULL,
  `pkey` int(11) NOT NULL,
  `c_xcyuvb` int(11) DEFAULT NULL,
  `c_4pccrc` text DEFAULT NULL,
  `c_cuvggc` double DEFAULT NULL,
  `c_60x9qc` int(11) DEFAULT NULL,
  `c_agrvrd` int(11) DEFAULT NULL,
  `c_kj8rj` text DEFAULT NULL,
  `c_bldsc` int(11) DEFAULT NULL,
  `c_dvfwbc` double DEFAULT NULL,
  `c_u8gg_d` double DEFAULT NULL,
  PRIMARY KEY (`pkey`)
) ENGINE=InnoDB DEFAULT CHARSET=latin1;
/* init */ INSERT INTO `t_davsbd` VALUES
(3,25000,72,NULL,78.22,77,69,'ya99id',35,35.84,NULL),
(3,26000,45,NULL,77.45,67,77,'wjp6jc',48,53.85,37.89),
(3,27000,11,NULL,38.36,9,50,NULL,81,58.36,31.54),
(3,28000,69,NULL,38.87,5,66,'yulahb',76,92.91,6.78),
(3,29000,52,NULL,97.8,93,42,'os_tld',74,69.56,37.51),
(4,30000,55,'515f6',51.85,15,NULL,'ko4pmb',11,85.33,62.31),
(4,31000,16,'_8qpgb',75.67,100,NULL,'0sr5yd',6,32.9,27.34),
(4,32000,27,'6yy0nc',NULL,44,NULL,'tgsskd',19,94.35,62.21),
(4,33000,72,'5zuba',29.69,21,NULL,'_c6kld',7,70.61,3.93),
(5,34000,79,'hziu_b',NULL,66,16,NULL,7,68.57,47.28),
(5,35000,99,'yz4zpd',NULL,56,73,'t_zwl',35,86.13,2147483648.1),
(5,36000,93,'qnyv0c',NULL,53,22,'sutgxc',69,34.1,NULL),
(5,37000,57,NULL,NULL,16,63,'gnlbu',80,87.6,86.85),
(5,38000,98,'jpyoz',NULL,66,48,'fgvavb',42,47.3,76.15),
(5,39000,72,'xdk5k',NULL,72,70,'bxtqk',72,NULL,77.51),
(5,40000,25,NULL,NULL,19,18,'6wwpz',48,87.14,4.14),
(5,41000,76,'pqse4',NULL,23,58,'oxqzob',47,40.11,84.96),
(10,66000,88,'dwvoic',82.28,65,7,NULL,79,NULL,NULL),
(10,67000,56,'9patl',52.2,16,9,NULL,27,NULL,NULL),
(10,68000,86,'hfoytd',28.35,69,94,NULL,60,NULL,NULL),
(10,69000,98,'j9fwvd',13.8,2,73,NULL,38,NULL,NULL),
(10,70000,46,'xznjh',9.15,99,8,NULL,38,NULL,NULL),
(10,71000,55,'_9pu1',14.3,38,34,NULL,47,NULL,NULL),
(10,72000,93,'_zcxuc',81.23,59,9,NULL,40,NULL,NULL),
(11,73000,14,'xp0pv',55.93,99,88,NULL,23,6.23,NULL),
(11,74000,96,'j_ff7c',28.7,26,41,NULL,72,NULL,NULL),
(11,75000,93,'t1m7ud',69.91,43,11,NULL,86,84.12,NULL),
(11,76000,46,'79_yx',64.64,42,3,NULL,56,90.87,NULL),
(11,77000,69,'exhivc',67.14,7,27,NULL,65,11.35,NULL),
(11,78000,88,'t2kwob',40.25,100,10,NULL,57,31.25,NULL),
(11,79000,93,'7ofgu',51.7,11,21,NULL,96,21.41,NULL),
(11,80000,10,'yioc3d',26.14,37,62,NULL,53,62.51,NULL);
/* init */ CREATE TABLE `t_iqij_c` (
  `wkey` int(11) DEFAULT NULL,
  `pkey` int(11) NOT NULL,
  `c_svp9sc` int(11) DEFAULT NULL,
  `c_anyvkb` text DEFAULT NULL,
  `c_mh2cm` int(11) DEFAULT NULL,
  PRIMARY KEY (`pkey`),
  UNIQUE KEY `t__vjgtc` (`wkey`,`pkey`,`c_svp9sc`)
) ENGINE=InnoDB DEFAULT CHARSET=latin1;
/* init */ INSERT INTO `t_iqij_c` VALUES
(1,11000,85,'vcn8x',64),
(1,12000,94,NULL,5),
(1,13000,45,NULL,14),
(1,14000,26,'1xqnfb',97),
(1,15000,9,NULL,45),
(1,16000,48,'10ob0d',78),
(6,42000,46,'yoefpb',87),
(6,43000,32,'ol4rmb',61),
(6,44000,52,'pp5gx',15),
(6,45000,6,'tjojob',3),
(6,46000,87,'a8dddc',14),
(6,47000,76,'pzxs6c',77),
(6,48000,5,'esgfm',29);
/* init */ CREATE TABLE `t_j4mbqd` (
  `wkey` int(11) DEFAULT NULL,
  `pkey` int(11) NOT NULL,
  `c_ilrr3` int(11) DEFAULT NULL,
  `c_oxaor` int(11) DEFAULT NULL,
  `c_fpoubb` text DEFAULT NULL,
  `c_9d3uzb` int(11) DEFAULT NULL,
  `c_egm4x` int(11) DEFAULT NULL,
  PRIMARY KEY (`pkey`)
) ENGINE=InnoDB DEFAULT CHARSET=latin1;
/* init */ INSERT INTO `t_j4mbqd` VALUES
(24,17000,4,44,'zuylu',28,NULL),
(24,18000,66,45,'vb44v',4,NULL),
(24,19000,0,110,'mlg5qd',29,NULL),
(24,20000,54,77,'zpkzm',38,NULL),
(24,21000,0,44,'eosfuc',8,NULL),
(24,22000,3,5,'vgqx6d',26,NULL),
(24,23000,2,NULL,'qqyxz',44,NULL),
(24,24000,66,84,NULL,84,NULL);
/* t1 */ START TRANSACTION;
/* t1 */ delete from t_davsbd;
/* t2 */ START TRANSACTION;
/* t2 */ insert into t_iqij_c (wkey, pkey, c_svp9sc, c_anyvkb) values
(115, 222000, ASCII('w_3pab'), null),
(115, 223000, CHAR_LENGTH(
case when ((select wkey from t_j4mbqd order by wkey limit 1 offset 34)
in (select ref_0.pkey as c0 from t_davsbd as ref_0))
then 'k0hpvb' else 'sss' end), null);
/* t1 */ update t_j4mbqd set wkey = 190;
/* t1 */ ROLLBACK;
/* t2 */ ROLLBACK;
-- Liveness probe added by the corpus (not part of the PoC): after a crash this fails.
/* t3 */ SELECT 1;  -- expect: rows [1]
