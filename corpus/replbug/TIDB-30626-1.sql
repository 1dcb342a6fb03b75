-- id: TIDB-30626-1
-- title: Query makes the server run into a buffer overflow
-- link: https://github.com/pingcap/tidb/issues/30626
-- dbms: TiDB v5.4.0
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-30626.txt scenario_1, setup from replbug-sql/TIDB-30626_mysql_bk.sql
-- description: Looses connection to the server.
-- bug-type: Crash; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- Crash bug: the only expectation is the liveness probe at the end.
/* init */ CREATE TABLE `t__zzgcb` (
  `c_pixrzd` int(11) DEFAULT NULL,
  `c_g94v4` text DEFAULT NULL,
  `c_sotqsb` text DEFAULT NULL,
  `c_q4ltzb` double DEFAULT NULL,
  `c_sopgjc` int(11) DEFAULT NULL,
  `c_firz0c` double DEFAULT NULL,
  `c_wirxeb` int(11) NOT NULL,
  `c_uh3kbc` text DEFAULT NULL,
  PRIMARY KEY (`c_wirxeb`) /*T![clustered_index] CLUSTERED */
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
/* init */ INSERT INTO `t__zzgcb` VALUES (41,'zxhkrc','hxwaed',7.49,42,21.52,11,'yi2b_d'),(44,'yr4ig','prfbpb',7.81,53,87.99,18,'p5x4pb'),(88,NULL,'9vejob',56.61,63,14.32,118,'dvbvtd');
/* init */ CREATE TABLE `t_cvooz` (
  `c_y1xhad` int(11) NOT NULL,
  `c_gumvcc` int(11) DEFAULT NULL,
  `c_de25i` double DEFAULT NULL,
  `c_ndiwtc` int(11) NOT NULL,
  `c_v0sp5b` int(11) DEFAULT NULL,
  PRIMARY KEY (`c_ndiwtc`,`c_y1xhad`) /*T![clustered_index] NONCLUSTERED */
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
/* init */ INSERT INTO `t_cvooz` VALUES (87,36,15.13,52,4),(32,34,16.59,10,83),(95,65,38.64,54,100),(16,23,21.11,97,56),(11,53,18.92,82,63),(45,4,82.14,36,1040),(14,21,16.73,65,30),(0,53,NULL,6,32),(39,22,93.51,24,12),(0,NULL,84.63,4,0),(0,43,6.1,60,70),(82,9,13.79,5,83),(25,41,45.47,82,18),(97,104,72.83,20,0),(20,76,85.73,57,74),(79,87,6.2,14,15),(29,92,NULL,82,22),(11,58,75.99,0,81),(0,33,34.28,50,26),(64,64,NULL,21,62),(78,81,11.78,50,49),(23,64,52.47,90,52),(40,56,57.86,47,71),(3145728,96,55.4,75,6),(39,84,4.63,33,13),(66,76,4.31,66,20),(0,0,NULL,49,2686976),(75,72,95.56,7482,37),(10,12495,51.59,68,17);
/* t1 */ start transaction;
/* t1 */ insert into t_cvooz values
(81, case when trim('p9u_9c') <= (
select
'vnsgnd' as c0
from
(t_ljlaub as ref_3
cross join t_ljlaub as ref_4
)
) then 87 else 26 end
, 44.67, 60, null);
/* t1 */ commit;
-- Liveness probe added by the corpus (not part of the PoC): after a crash this fails.
/* t2 */ SELECT 1;  -- expect: rows [1]
