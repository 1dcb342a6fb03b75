-- id: TIDB-30326
-- title: Server crashes with overflows
-- link: https://github.com/pingcap/tidb/issues/30326
-- dbms: TiDB v5.4.0
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-30326.txt scenario_0, setup from replbug-sql/TIDB-30326_mysql_bk.sql
-- description: The server crashes.
-- bug-type: Crash; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- Crash bug: the only expectation is the liveness probe at the end.
/* init */ CREATE TABLE `t_037irb` (
  `c_nrh3o` int(11) DEFAULT NULL,
  `c_nfauxb` text DEFAULT NULL,
  `c_y5n4c` int(11) DEFAULT NULL,
  `c_j9alg` double NOT NULL,
  `c_4vix1d` text DEFAULT NULL,
  `c_glkxdb` text DEFAULT NULL,
  `c_2ykt0d` int(11) DEFAULT NULL,
  `c_5fxv3c` double DEFAULT NULL,
  PRIMARY KEY (`c_j9alg`) /*T![clustered_index] NONCLUSTERED */
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
/* init */ INSERT INTO `t_037irb` VALUES (NULL,'yimkgd',78,67.67,'rkgn5c','idtkkb',NULL,48.87),(17,'6j7im',59,28.45,'ff7_6','esqus',0,52.21),(103,'bwrlzd',2520,5.25,'7sgu8d','ytqn9b',34,67.53),(77,'u1ba9d',20,99.59,'ieeo4b','jdpolb',6,65.1),(NULL,'lljofd',90,83.86,'','m_umyd',2704,87.54),(9,NULL,30,85.72,NULL,'sfw91',5,6.32),(66,'5oq9dd',22,10.36,'llv63b','vqcgf',75,60.62),(39,NULL,1,86.55,'fvnan',NULL,12,22.43),(8,'wh26u',66,96.44,'djb5zc','becen',10,30.32),(56,'_6hf7c',5,92.64,'vjcljc','_bhb0b',91,53.21),(6,'dbvikc',12,9.350000000000001,'07vitd','tczeqb',NULL,93.41);
/* init */ CREATE TABLE `t_x7zqmd` (
  `c_8weeq` int(11) NOT NULL,
  `c_13sfid` double DEFAULT NULL,
  `c_hhjlmc` text DEFAULT NULL,
  `c_3b1zld` int(11) DEFAULT NULL,
  `c_6tu8wd` int(11) DEFAULT NULL,
  `c_jyc_cd` double DEFAULT NULL,
  PRIMARY KEY (`c_8weeq`) /*T![clustered_index] CLUSTERED */
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
/* init */ INSERT INTO `t_x7zqmd` VALUES (0,0,'mus47d',82,77,85.5),(1,5.25,'xvllic',82,0,16.19),(2,28.45,NULL,12,27,78.53),(6,94.71,'yv7_vd',36,74,27.26),(7,12.95,'eurbvd',69,15,83.34),(9,48.47,'2gs_gd',35,96,NULL),(11,87.83,'wmxl2b',44,30,NULL),(12,37.69,NULL,31,24,42.49),(13,75.4,'myls7b',50,18,NULL),(15,20.47,'qunixb',8,NULL,NULL),(17,55.87,'copckd',75,32,46.54),(18,51.72999999999999,NULL,21,10,44.17),(19,14.46,'07vitd',11,40,5.13),(22,55.6,'i5hwqb',0,17,11.75),(31,11.7,'9yz_eb',2,381681664,NULL),(34,0,'3kmxec',-62,67,95.86),(38,32.71,'uvjxfb',99,39,49.33),(39,30.85,'ltki5c',81,93,4.51),(41,51.84,'7fz1gb',97,19,NULL),(42,2.08e-322,'qnztlc',32,34,NULL),(43,NULL,NULL,7,10,26.14),(46,63.54,'7sgu8d',93,21,58.65),(47,10.16,'',82,66,NULL),(52,32.94,'yimkgd',69,74,100.7),(53,7.4,'klqrk',79,6,20.72),(54,NULL,'yfhk7',47,33,16.34),(59,81.64,'vgfuz',59,71,81.1),(60,85.72,'kbavzc',96,20,54.95),(61,20.95,'yimkgd',11,704643072,76.63),(64,51.57,'crrhhb',16,31,60.43),(67,83.58,'g3dw_d',78,59,3.3e-322),(72,NULL,'vtpcvc',NULL,84,77.12),(75,NULL,'ryxq1c',82,72,8.32),(76,60.93,'aodaf',10,98,46.6),(77,74.79,'vvrjvc',9,16,11.18),(78,29.93,'u1rrnc',NULL,31,92.26),(79,NULL,'h7kfoc',69,66,29.13),(82,35.7,NULL,230,9,24.51),(90,78.74,'bitqy',60,34,10.62),(92,51.88,'t3ggec',49,93,77.1),(93,65.87,'ow4ycd',19,80,99.59),(95,55.7,'yimkgd',91,87,9.67),(98,64.95,'bwrlzd',4,27,16.7),(99,5.13,'74wmjc',20,43,30.77),(100,27.72,'9oqk_c',68,98,NULL),(112,95.5,'j4zczc',42,60,59.99),(2989,38.68,'9qaxpd',NULL,74,99.93),(5476,23.32,'lljofd',66,79,68.88);
/* t1 */ begin;
/* t1 */ WITH
cte_0 AS (select
1 as c1,
(FIRST_VALUE(1) over (partition by subq_0.c0) < 1) as c3,
(select c4 from t_cpsvpb) as c7,
1 as c11
from
(select
ref_0.c_13sfid as c0
from
t_x7zqmd as ref_0
where 0 <> 0) as subq_0)
select 1
from
((t_037irb as ref_6 cross join cte_0 as ref_7)
inner join (t_037irb as ref_8 inner join cte_0 as ref_9 on (ref_8.c_nrh3o = ref_9.c11 ))
on (ref_7.c1 = ref_8.c_j9alg ));
-- Liveness probe added by the corpus (not part of the PoC): after a crash this fails.
/* t2 */ SELECT 1;  -- expect: rows [1]
