-- id: TIDB-34043-1
-- title: Nested operations make server crash
-- link: https://github.com/pingcap/tidb/issues/34043
-- dbms: TiDB v6.1.0
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-34043.txt scenario_1, setup from replbug-sql/TIDB-34043_mysql_bk.sql
-- description: Looses connection to the server.
-- bug-type: Crash; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- Crash bug: the only expectation is the liveness probe at the end.
/* init */ CREATE TABLE `t_wzgyvd` (
  `wkey` int(11) DEFAULT NULL,
  `pkey` int(11) NOT NULL,
  `c_oswlic` text DEFAULT NULL,
  `c_c23g6c` int(11) DEFAULT NULL,
  `c__gkztd` double DEFAULT NULL,
  `c_pqvmnd` text DEFAULT NULL,
  `c_dm4wqb` text DEFAULT NULL,
  `c_hysvi` text DEFAULT NULL,
  PRIMARY KEY (`pkey`) /*T![clustered_index] CLUSTERED */,
  UNIQUE KEY `pkey_2` (`pkey`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
/* init */ INSERT INTO `t_wzgyvd` VALUES (2,2,'kzwf6d',25,57.5,'_dhoad','zz9vjd','3hhfy'),(2,3,'wtvncd',92,97.56,'2w211c','inpfld','caqcl'),(2,4,'oxluwc',1,73.41,'zbnuud','8zh__b','wcqsgc'),(2,5,'sjfsmd',30,93.7,'3oc_4','fuqpfc','tribdd'),(2,6,'twmlzc',27,90.7,'vi_kz','peykyd','vm9t_c'),(5,15,'eglayb',6,46.32,'_xqci','yocfd','ovjyxd'),(5,16,'djfozd',64,80.27,'lz648','7tdntc','tag10c'),(5,17,'a872gb',64,89.44,'xojujc','x7zufb',NULL),(5,18,'gtqfld',55,24.77,NULL,NULL,'zyytt'),(6,19,'7otpdc',76,60.76,'jrzczb','nxn3u','e9nvsc'),(6,20,NULL,10,44.47,'lpvz9d','q5lyk','1k0r2c'),(6,21,'taaozd',42,34.7,NULL,'v4zfgb','9tu6m'),(6,22,'mnj9ic',83,71.29,'el7xob','oxyfj','2qdsbd'),(6,23,'gdu9l',22,34.1,'lsq1sd','er_qkb','wzuc9d'),(7,24,'sbnmub',8,47.21,'meky0','byaf9b',NULL),(7,25,'ytzwkd',45,95.27,'q12c4d','8yhipd','rtjssb'),(7,26,'qxy20',82,9.47,'wdsqac','8apveb','rfjybb'),(7,27,'3sv6hd',95,68.22,'lrttx','duybnc','agr6bc'),(7,28,'hvdob',50,69.96,'0mbhx','g6moqd',NULL),(7,29,'83smk',33,23.11,'v1pfj','8d4rcc','rwclr'),(9,35,'c000cb',15,2.64,'fbjn6c','ldxk0','hg_d0d'),(9,36,'taqpt',24,32.19,'fws71','85lp1',NULL),(9,37,'lpdcrc',27,5.99,'k5rrrb','sumjnb','ky2_6c'),(9,38,'rlow7',28,74.32,'_cnklb','wi2bp','jgz3nd'),(9,39,'mibsvd',7,42.7,'kbnq0','w0i_3d','1msqd'),(9,40,'gjcz4',6,88.5,'km3qwd','lfocvb','_pmf_c'),(11,45,NULL,86,56.2,'2ioa5d','vilu_','bw8kmc');
/* init */ CREATE TABLE `t_zb_m5` (
  `wkey` int(11) DEFAULT NULL,
  `pkey` int(11) NOT NULL,
  `c_4iptac` double DEFAULT NULL,
  `c_kbcikb` double DEFAULT NULL,
  `c_mu4_e` double DEFAULT NULL,
  `c_lmpznc` double DEFAULT NULL,
  PRIMARY KEY (`pkey`) /*T![clustered_index] CLUSTERED */,
  UNIQUE KEY `pkey_2` (`pkey`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
/* init */ INSERT INTO `t_zb_m5` VALUES (1,1,11.93,NULL,34.94,75.17),(3,7,NULL,77.8,94.21,34.47),(3,8,15.6,59.67,79.57,97.24),(4,9,41.1,34.5,21.46,7.52),(4,10,7.98,40.55,8.4,43.28),(4,11,23.81,39.22,NULL,35.82),(4,12,NULL,25.9,60.28,81.18),(4,13,14.7,NULL,67.6,77.3),(4,14,12.18,95.62,82.44,93.33),(8,30,35.41,63.47,88.35,NULL),(8,31,83.41,84.62,63.49,39.5),(8,32,25.73,95.48,18.5,22.58),(8,33,30.8,93.46,26.97,40.14),(8,34,41.9,73.7,1.6,22.13),(10,41,29.51,22.96,3.1,5.97),(10,42,67.57,37.15,55.12,56.5),(10,43,NULL,93.72,89.86,21.77),(10,44,48.38,3.17,69.3,74.11);
/* t1 */ start transaction;
/* t1 */ select
ref_0.c_lmpznc as c5
from
t_zb_m5 as ref_0
where (ref_0.c_mu4_e in (
select distinct
ref_2.pkey > ref_2.c_c23g6c as c0
from
(t_wzgyvd as ref_2
cross join t_wzgyvd as ref_3
)
where EXISTS (
select
ref_4.c__gkztd as c0,
ref_2.pkey as c1
from
t_wzgyvd as ref_4
where EXISTS (
select
ref_5.c_pqvmnd as c10
from
t_wzgyvd as ref_5
where (ref_5.c_hysvi < (
select
ref_3.c_oswlic as c0
from
t_wzgyvd as ref_6
where ref_4.c_dm4wqb in (
select
'o5sq1c' as c0
from
t_zb_m5 as ref_7
where ref_7.wkey = ref_7.pkey
)
) or ref_2.c_c23g6c < ref_4.wkey)))
));
/* t1 */ commit;
-- Liveness probe added by the corpus (not part of the PoC): after a crash this fails.
/* t2 */ SELECT 1;  -- expect: rows [1]
