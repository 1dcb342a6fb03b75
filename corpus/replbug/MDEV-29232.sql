-- id: MDEV-29232
-- title: The server crashes
-- link: https://jira.mariadb.org/browse/MDEV-29232
-- dbms: MariaDB 10.8.3
-- isolation: read-uncommitted, read-committed, repeatable-read, serializable
-- source: ReplBug thesis (paper 003), replbug/MDEV-29232.txt scenario_0, setup from replbug-sql/MDEV-29232_mysql_bk.sql
-- description: The testcase makes the server crash.
-- bug-type: Crash; levels where it manifested (correlation sheet): read-uncommitted, read-committed, repeatable-read, serializable
-- Crash bug: the only expectation is the liveness probe at the end.
/* init */ CREATE TABLE `t_8d1kmc` (
  `wkey` int(11) DEFAULT NULL,
  `pkey` int(11) NOT NULL,
  `c_iutmd` double DEFAULT NULL,
  `c_xmjzvd` text DEFAULT NULL,
  `c_usjead` double DEFAULT NULL,
  `c_idb5pd` text DEFAULT NULL,
  `c_mze4wc` double DEFAULT NULL,
  `c__3ri0` int(11) DEFAULT NULL,
  `c_tekomc` text DEFAULT NULL,
  `c_zlvlc` text DEFAULT NULL,
  `c_dc8zhc` text DEFAULT NULL,
  PRIMARY KEY (`pkey`)
) ENGINE=InnoDB DEFAULT CHARSET=latin1;
/* init */ INSERT INTO `t_8d1kmc` VALUES
(6,35000,95.13,'hdfrn',58.5,NULL,NULL,NULL,'00n3ib','_hmqfb','3_50n'),
(6,36000,84.45,'e5vjid',49.15,'shahid',NULL,NULL,'kbfsf','kx7vg','pr32nd'),
(6,37000,66.9,'glbtu',100.32,'owywp',NULL,NULL,'j1x2p','jq8yrb','fv1ulc'),
(6,38000,59.34,'ofebxc',84.61,'vcneq',NULL,NULL,'lmxufb','gxp1gc','xljf7c'),
(8,43000,34.26,'ijz55',NULL,'f2kxnd',48.82,52,'h0lljd','9ixms','bchqr'),
(8,44000,78.92,'zsan6',NULL,'rr8lm',96.33,45,'lrdxyc','ncqxzd',NULL),
(8,45000,33.29,'2jlznc',NULL,'ynynpd',81.18,29,'vcydd','wak3vd',NULL),
(8,46000,49.26,'zolyc',NULL,'k8nyfd',NULL,45,'qkdead','jvnimd','d63u1b'),
(13,72000,29.71,'rgd4lc',44.25,NULL,82.28,60,'a6g1xb',NULL,'ozgxud'),
(13,73000,33.75,'nkgjq',47.49,NULL,3.72,3,'odv2qd',NULL,'qxuyn'),
(13,74000,NULL,'3cv7ud',45.98,NULL,95.65,64,'exh05',NULL,'5uv_fb'),
(13,75000,10.65,'pldobc',78.1,NULL,NULL,88,'_rnk5',NULL,'ylvwuc'),
(13,76000,43.36,'jgeltc',78.95,NULL,NULL,13,'oq7edb',NULL,'1lrczd'),
(13,77000,17.44,'5ftazd',77.39,NULL,21.79,100,'ct8lr',NULL,'d7f7a'),
(13,78000,53.52,'0ge3zc',38.8,NULL,40.41,40,'fjrc6b',NULL,'xihcwc');
/* init */ CREATE TABLE `t_d0pt_c` (
  `wkey` int(11) DEFAULT NULL,
  `pkey` int(11) NOT NULL,
  `c_hwgidb` text DEFAULT NULL,
  `c_5_lqkd` text DEFAULT NULL,
  `c_qpavyc` text DEFAULT NULL,
  `c_tjq0xc` int(11) DEFAULT NULL,
  `c_ds4khc` text DEFAULT NULL,
  `c_tlumg` int(11) DEFAULT NULL,
  `c_bepqhc` int(11) DEFAULT NULL,
  PRIMARY KEY (`pkey`)
) ENGINE=InnoDB DEFAULT CHARSET=latin1;
/* init */ INSERT INTO `t_d0pt_c` VALUES
(1,11000,NULL,NULL,'xcdgjd',51,'vvr83b',NULL,82),
(1,12000,NULL,'j97usc','lvfvdc',84,'8lbuqc',NULL,4),
(1,13000,NULL,'fvq_tb',NULL,98,'gou1pc',NULL,88),
(2,14000,'7nrazd','kxvbbc',NULL,83,NULL,18,NULL),
(2,15000,'fr0ku','pax_oc',NULL,91,NULL,54,NULL),
(2,16000,'clq_2','gnhgkb',NULL,47,NULL,4,NULL),
(2,17000,'txlt_c','80s8id',NULL,19,NULL,60,NULL),
(9,47000,'xqy_eb','zs1ued','gctgwb',42,'6dbm5d',96,85),
(9,48000,'txshvb','_ybamd',NULL,66,'idtdyd',87,26),
(9,49000,'j_no6','lwpbk','ofpsz',85,'9_00_c',39,96),
(9,50000,NULL,'suvjnd','sgy2rd',77,'8un4cb',89,41),
(9,51000,'glueic','fcan9b','upkgcd',24,'afgnub',96,1),
(14,79000,'hvongc','s65dec','qza3pd',70,'ftuf3c',87,85),
(14,80000,'ipbybd','z_y7p','pzryl',79,'uqcg8c',28,80),
(14,81000,NULL,'neple','ydyd1c',63,'xwslac',97,83);
/* init */ CREATE TABLE `t_g2kscc` (
  `wkey` int(11) DEFAULT NULL,
  `pkey` int(11) NOT NULL,
  `c_7gtbuc` text DEFAULT NULL,
  PRIMARY KEY (`pkey`)
) ENGINE=InnoDB DEFAULT CHARSET=latin1;
/* init */ INSERT INTO `t_g2kscc` VALUES
(4,24000,'poqrqb'),
(4,25000,'vr44yd'),
(4,26000,'e_5egc'),
(5,27000,'cbum5d'),
(5,28000,'qbacob'),
(5,29000,'t7imhc'),
(5,30000,'3whwcb'),
(5,31000,NULL),
(5,32000,NULL),
(5,33000,NULL),
(5,34000,'sibayb'),
(10,52000,'vfpv_d'),
(10,53000,'ig31nd'),
(10,54000,'kqp6dd'),
(10,55000,NULL),
(10,56000,'sup_od'),
(10,57000,'enalcc'),
(10,58000,'eh32ac'),
(11,59000,'tgujac'),
(11,60000,'5oboqd'),
(11,61000,'xglpe'),
(11,62000,'om9qqd'),
(11,63000,'_w5yxd'),
(11,64000,'nzczbc'),
(12,65000,'dkh4rb'),
(12,66000,'mfk3dd'),
(12,67000,'2ebwc'),
(12,68000,'lrs68'),
(12,69000,'raz_tb'),
(12,70000,'lpdoab'),
(12,71000,NULL);
/* init */ CREATE TABLE `t_ubf7fd` (
  `wkey` int(11) DEFAULT NULL,
  `pkey` int(11) NOT NULL,
  `c_k2ol0d` int(11) DEFAULT NULL,
  `c_monh_b` double DEFAULT NULL,
  `c_dnwdcc` double DEFAULT NULL,
  PRIMARY KEY (`pkey`)
) ENGINE=InnoDB DEFAULT CHARSET=latin1;
/* init */ INSERT INTO `t_ubf7fd` VALUES
(3,18000,21,NULL,13.31),
(3,19000,56,NULL,50.33),
(3,20000,13,NULL,NULL),
(3,21000,86,NULL,79.64),
(3,22000,75,NULL,97.48),
(3,23000,63,NULL,19.82),
(7,39000,23,NULL,67.22),
(7,40000,59,23.93,NULL),
(7,41000,8,15.2,60.17),
(7,42000,85,27.4,57.24);
/* t1 */ START TRANSACTION;
/* t1 */ select case when case when PI() in (
select
85.45 as c0
from
t_g2kscc as ref_0
where (ref_0.pkey <= (
select
ref_1.wkey as c0
from
t_g2kscc as ref_1))
) then 60 else 10 end
not in (
select
ref_4.c_tlumg as c0
from
t_d0pt_c as ref_4
) then 65.4 else 44.96 end;
-- Liveness probe added by the corpus (not part of the PoC): after a crash this fails.
/* t2 */ SELECT 1;  -- expect: rows [1]
