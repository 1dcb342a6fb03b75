-- id: TIDB-30633
-- title: A select makes the server hang
-- link: https://github.com/pingcap/tidb/issues/30633
-- dbms: TiDB v5.4.0
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-30633.txt scenario_0, setup from replbug-sql/TIDB-30633_mysql_bk.sql
-- description: Looses connection to the server.
-- bug-type: DBMS hang; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- Crash bug: the only expectation is the liveness probe at the end.
/* init */ CREATE TABLE `t_j2g80b` (
  `c_u2kce` int(11) NOT NULL,
  `c_w42opb` text DEFAULT NULL,
  `c_nqlbid` double DEFAULT NULL,
  `c_qjqhn` double DEFAULT NULL,
  `c_lktnoc` text DEFAULT NULL,
  `c_emjlvc` double DEFAULT NULL,
  `c_ssjrfb` double DEFAULT NULL,
  `c_5fpoid` int(11) DEFAULT NULL,
  `c_xbiw1c` text DEFAULT NULL,
  PRIMARY KEY (`c_u2kce`) /*T![clustered_index] CLUSTERED */
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
/* init */ INSERT INTO `t_j2g80b` VALUES (7,'zepfjb',43.88,76.21,'zxskn',NULL,24.2,90,NULL),(23,'6upb3b',56.5,57.93,'xil0ec',26.29,97.78,13,'ag0_oc'),(24,'popxxc',3.6,69.9,NULL,41.75,1.31,16,NULL),(33,'hx8cvb',58.23,86.11,'f6s8y',NULL,25.81,68,'ue6m5d'),(40,'',80.58,40.41,'2M6WGC',40.19,NULL,35,NULL),(48,'hoopmd',9.93,89.4,'qfx8kb',16.75,76.18,87,'dy1k7d'),(50,'pt2rzd',11.84,NULL,'ubrznb',29.53,23.56,55,''),(58,NULL,NULL,48.5,'1demad',90.1,38.19,3,'g52em'),(64,'59qeyb',70.48,NULL,NULL,67.35,71.49,25,'8vas8d'),(76,'lutq_d',100.81,19.82,'rgpofb',22.36,NULL,70,'4ki4f'),(80,'i7uqvb',5.34,NULL,NULL,28.85,49.22,95,'lrm8kb'),(93,'cuam3b',NULL,70.46,'5i7pgc',10.5,24.97,76,'_ekeoc');
/* init */ CREATE TABLE `t_jzzvlc` (
  `c_guhvn` int(11) NOT NULL,
  `c_buclxd` int(11) DEFAULT NULL,
  `c_h7ycrb` double NOT NULL,
  `c_ga4vg` double DEFAULT NULL,
  `c_ulqme` int(11) DEFAULT NULL,
  `c_wgedcd` text DEFAULT NULL,
  `c_jzknnc` text DEFAULT NULL,
  `c_fwwbdd` double NOT NULL,
  `c_vb8_o` double DEFAULT NULL,
  PRIMARY KEY (`c_fwwbdd`,`c_guhvn`,`c_h7ycrb`) /*T![clustered_index] NONCLUSTERED */
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
/* init */ INSERT INTO `t_jzzvlc` VALUES (50,NULL,12.28,56.52,80,'6oimi','vref7d',51.99,61.6),(92,65,12.34,2.39,0,'''__vz4d''','xmdogb',46.32,60.77),(67,7,70.83,NULL,18,'yjrsx','at6yrb',50.19,73.41),(51,0,68.24,62.54,56,'soscyc','utqrc',54.3,25.25),(66,34,96.99,94.63,40,'lu40lb','zrcoqd',17.67,49.58),(14,42,32.47,2.95,1,'32lyod','h5r9',51.27,31.89),(-93,51,61.28,79.18,10,'xmmvl','mdumtd',35.88,52.11);
/* t1 */ WITH
cte_0 AS (select
1 as c13
from
((t_jzzvlc as ref_0
inner join ((t_j2g80b as ref_1
cross join t_k6hp_ as ref_2)
inner join t_k6hp_ as ref_3
on (ref_2.c0 = ref_3.c0 ))
on (ref_0.c_ulqme = ref_1.c_u2kce))
cross join t_jzzvlc as ref_4))
select
ref_15.c13 as c0
from
cte_0 as ref_15
;
-- Liveness probe added by the corpus (not part of the PoC): after a crash this fails.
/* t2 */ SELECT 1;  -- expect: rows [1]
