-- id: MDEV-29489
-- title: The server crashes
-- link: https://jira.mariadb.org/browse/MDEV-29489
-- dbms: MariaDB 10.10.1
-- isolation: read-uncommitted, read-committed, repeatable-read, serializable
-- source: ReplBug thesis (paper 003), replbug/MDEV-29489.txt scenario_0, setup from replbug-sql/MDEV-29489_mysql_bk.sql
-- description: MariaDB crashes.
-- bug-type: Crash; levels where it manifested (correlation sheet): read-uncommitted, read-committed, repeatable-read, serializable
-- Crash bug: the only expectation is the liveness probe at the end.
/* init */ CREATE TABLE `t_yfrkzd` (
  `wkey` int(11) DEFAULT NULL,
  `pkey` int(11) NOT NULL,
  `c_qgvebc` double DEFAULT NULL,
  `c_n1makd` int(11) DEFAULT NULL,
  `c_xluxid` text DEFAULT NULL,
  `c_eztecb` int(11) DEFAULT NULL,
  `c_sronxd` double DEFAULT NULL,
  `c_7oelkc` double DEFAULT NULL,
  `c_stzakc` double DEFAULT NULL,
  `c_qx5tnd` int(11) DEFAULT NULL,
  `c_aob5e` text DEFAULT NULL,
  PRIMARY KEY (`pkey`)
) ENGINE=InnoDB DEFAULT CHARSET=latin1;
/* init */ INSERT INTO `t_yfrkzd` VALUES
(1,11000,NULL,41,'85svbb',NULL,25.83,69.94,39.52,38,NULL),
(1,12000,NULL,100,NULL,NULL,1.3,54.46,38.29,99,NULL),
(1,13000,NULL,62,'mqzaud',NULL,85.96,66.35,47.39,77,NULL),
(4,29000,36.44,43,'e3ie5b',NULL,53.26,40.62,42.7,NULL,'avkwdb'),
(4,30000,NULL,44,NULL,NULL,54.6,72.5,68.4,NULL,'w9gz1b'),
(4,31000,42.7,56,'a0y6cb',NULL,57.49,26.84,22.7,NULL,'nxhhpc'),
(4,32000,33.74,71,'3gwf_d',NULL,11.27,NULL,14.89,NULL,'fiyrmc'),
(4,33000,65.25,42,'toa3qc',NULL,51.6,90.28,35.65,NULL,'kil97c'),
(4,34000,1.57,10,'v1fti',NULL,45.1,26.31,NULL,NULL,NULL),
(4,35000,1.24,87,'u0tkqd',NULL,30.95,13.86,89.58,NULL,'bz5mw'),
(4,36000,18.6,17,'riycf',NULL,57.44,2147483648.1,74.28,NULL,'9cl1yd'),
(6,45000,92.46,NULL,NULL,64,40.4,79.27,50.89,NULL,NULL),
(6,46000,84.49,NULL,'9pa4rc',69,NULL,7.87,83.74,NULL,NULL),
(6,47000,74.6,NULL,'mrijy',6,78.69,24.3,3.44,NULL,NULL),
(8,55000,27.4,42,'yxuj4d',79,88.16,27.86,NULL,NULL,NULL),
(8,56000,3.74,35,'rprasd',61,79.8,92.83,30.2,NULL,'dothi'),
(8,57000,40.99,19,'nevi0c',93,55.13,38.38,12.9,NULL,'ig_sbb'),
(8,58000,99.28,83,'x6yr4d',28,NULL,97.9,98.2,NULL,'_egg6b'),
(8,59000,60.39,100,'f0oy5c',67,39.32,85.38,82.86,NULL,'asdqy'),
(8,60000,37.18,49,'coooo',11,80.58,46.12,NULL,NULL,'nj8akc'),
(8,61000,39.55,14,'js8ykb',91,17.4,20.11,NULL,NULL,'gwkdmb'),
(8,62000,83.52,14,'noods',75,77.47,13.85,7.57,NULL,'qczqhc'),
(10,66000,NULL,NULL,'suzbnd',82,50.81,12.58,41.1,13,'uay_8b'),
(10,67000,NULL,NULL,'ie7add',64,62.9,34.62,38.23,59,'eym53c'),
(10,68000,NULL,NULL,NULL,40,64.67,8.92,61.23,79,'ajrll'),
(10,69000,NULL,NULL,'4a4agc',43,43.42,60.9,66.93,2,NULL),
(10,70000,NULL,NULL,'qs7_zb',25,12.83,NULL,NULL,45,'mepiuc'),
(12,77000,NULL,NULL,'nq7hqb',83,66.58,72.77,NULL,72,'9nn5yc'),
(12,78000,NULL,NULL,'lsb51b',39,87.66,8.83,NULL,58,NULL),
(12,79000,NULL,NULL,'gkmggd',94,60.53,35.76,NULL,82,'usjb8d'),
(12,80000,NULL,NULL,'d7jjv',25,3.5,NULL,NULL,76,'lfyj9c');
/* init */ CREATE TABLE `t_ywo4_b` (
  `wkey` int(11) DEFAULT NULL,
  `pkey` int(11) NOT NULL,
  `c_sah8vd` text DEFAULT NULL,
  `c_l1i__d` text DEFAULT NULL,
  `c_u_z8lb` text DEFAULT NULL,
  `c_m53hyb` double DEFAULT NULL,
  `c_k4lijb` text DEFAULT NULL,
  `c_hlsgr` int(11) DEFAULT NULL,
  `c_slmysb` text DEFAULT NULL,
  `c_s8yzsd` int(11) DEFAULT NULL,
  `c_7axzd` text DEFAULT NULL,
  PRIMARY KEY (`pkey`),
  UNIQUE KEY `t_ghfno` (`wkey`,`pkey`,`c_m53hyb`,`c_hlsgr`,`c_s8yzsd`)
) ENGINE=InnoDB DEFAULT CHARSET=latin1;
/* init */ INSERT INTO `t_ywo4_b` VALUES
(2,14000,'w3mmxb','r51vuc','1chytc',13.7,'m3vhdd',53,'s9t43',NULL,NULL),
(2,15000,'yy0ewb','psu38c','f6zwvd',86.8,'sa9pq',37,'ycizac',NULL,NULL),
(2,16000,'nwmajd',NULL,'ourqbc',82.79,'njcxob',6,'jdwqhb',NULL,NULL),
(2,17000,'6acdib','btxopc','li6khd',24.14,'z0gx2c',30,'ey9fic',NULL,NULL),
(2,18000,'jjpeh','zebneb','1jx6g',41.81,'5ehzm',17,'s9oebb',NULL,NULL),
(2,19000,'jqo91','ottf0','tdipw',56.72,'u4c_id',38,'hxyhbb',NULL,NULL),
(2,20000,NULL,'gaezdb','_nsfwc',57.37,'kgbe3c',96,'eyms2',NULL,NULL),
(2,21000,'_5skqb','zykosb','yzhq0d',32.17,'gwdbgc',57,'g1uxrd',NULL,NULL),
(3,22000,NULL,'ymwv3d',NULL,98.66,'hld0_b',60,'_ja7y',12,'w8zgb'),
(3,23000,NULL,'zoeapb',NULL,5.7,'x_zb6',32,'06qipb',61,NULL),
(3,24000,NULL,'ossvoc',NULL,59.56,'9x_hvd',14,'utcx9',46,'satwib'),
(3,25000,NULL,'gupqgd',NULL,24.51,'gbcmw',98,'sgngqc',98,'miclyb'),
(3,26000,NULL,'yuent',NULL,64.96,'b1msib',37,'uhxbb',36,'xgtjs'),
(3,27000,NULL,'e_ecrb',NULL,40.98,'oltxod',41,'2gbud',4,'re0pw'),
(3,28000,NULL,'ynx2u',NULL,40.26,'bk3rwc',31,'qokgad',99,'1hh0mb'),
(5,37000,'_0e7z','8jtmwb',NULL,NULL,'yznqgd',23,'khhchc',68,NULL),
(5,38000,'9o9shc',NULL,NULL,NULL,'mahkqb',45,'be2oj',3,NULL),
(5,39000,'ebiygb',NULL,NULL,NULL,'m5ilgc',34,'ln7xzc',34,NULL),
(5,40000,NULL,NULL,NULL,NULL,'rjh_5c',57,'psdnec',9,NULL),
(5,41000,NULL,'afatvb',NULL,NULL,'esohkd',15,'yit6e',26,NULL),
(5,42000,NULL,'qafwrd',NULL,NULL,'kpu3fd',47,'xxtzjd',64,NULL),
(5,43000,NULL,'ke7z3b',NULL,NULL,'bwhvic',24,NULL,21,NULL),
(5,44000,'zgwhwb','z4i3v',NULL,NULL,'ari9p',70,NULL,99,NULL),
(7,48000,'6nd1yb','abigwc','x6wwxc',NULL,'dmm0kd',96,NULL,32,'iobbib'),
(7,49000,'3m33sc','homie',NULL,NULL,'0a5lzc',39,NULL,87,'hxnkab'),
(7,50000,'d5s79','cj5sq','am449',NULL,'dxappd',97,NULL,69,'xhfi_'),
(7,51000,'yerhj',NULL,'ieosvd',NULL,'u9s2dd',6,NULL,85,'nlurc'),
(7,52000,'vppqyb','n1domc','ks26ub',NULL,'srl9yd',36,NULL,28,'xbtd1b'),
(7,53000,'wgam3d','hz4hzc','f5xpk',NULL,'eqrp1d',22,NULL,44,'xlqvtc'),
(7,54000,'db0znd',NULL,'m3zrqc',NULL,'war_wc',86,NULL,68,'miieuc'),
(9,63000,'aavxt','rpjfzc',NULL,46.28,NULL,56,NULL,52,NULL),
(9,64000,'4jzmod','gk3jo',NULL,68.52,NULL,61,NULL,85,'kaijkd'),
(9,65000,'xlevvd',NULL,NULL,39.93,NULL,43,NULL,78,'dni27'),
(11,71000,'uv1bab',NULL,'n8nsjb',14.97,'4rujkb',50,'hkvf_',NULL,'uqvh_b'),
(11,72000,'v2jl3b',NULL,'dlcnfd',34.81,'3yrdbc',11,'x3zmw',NULL,'7bclfb'),
(11,73000,'s4qjnd',NULL,'2ozki',47.6,'dhef5d',55,'gsfsr',NULL,'agnlhb'),
(11,74000,'let2ad',NULL,'1g4_wb',51.23,'ub1_ib',82,'0zrhsc',NULL,'u_nqjd'),
(11,75000,'or0rcb',NULL,NULL,71.39,'_kdtrd',84,'awpcwc',NULL,NULL),
(11,76000,'_amv_b',NULL,NULL,61.65,'_ijplc',90,'vnd5x',NULL,'nf_qy'),
(192,408000,'zsjreb','fql8gc','_8vopd',NULL,'obvzkd',NULL,'_vudi',31,NULL),
(192,409000,'ndkild','bkqnsb',NULL,NULL,'bbened',NULL,'qigt4',61,NULL),
(192,410000,'ch11gc','mlythd','bhw2xd',NULL,'rtaz2c',NULL,'nwtied',48,NULL);
/* t2 */ START TRANSACTION;
/* t1 */ START TRANSACTION;
/* t2 */ update t_yfrkzd set wkey = 80;
/* t2 */ delete from t_yfrkzd
where
t_yfrkzd.c_n1makd between t_yfrkzd.c_n1makd and t_yfrkzd.wkey;
/* t1 */ delete from t_ywo4_b
where
t_ywo4_b.c_hlsgr not in (
select
ref_0.pkey as c0
from
(t_yfrkzd as ref_0
inner join (select
ref_1.wkey as c0
from
t_yfrkzd as ref_1
) as subq_0
on (ref_0.wkey = subq_0.c0 )));
/* t2 */ delete from t_yfrkzd
where
(t_yfrkzd.c_aob5e not in (
select
ref_1.c_k4lijb as c0
from
t_ywo4_b as ref_1));
/* t2 */ ROLLBACK;
/* t1 */ ROLLBACK;
-- Liveness probe added by the corpus (not part of the PoC): after a crash this fails.
/* t3 */ SELECT 1;  -- expect: rows [1]
