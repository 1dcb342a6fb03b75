-- id: TIDB-30804
-- title: Nill pointer dereference
-- link: https://github.com/pingcap/tidb/issues/30804
-- dbms: TiDB v5.4.0
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-30804.txt scenario_0, setup from replbug-sql/TIDB-30804_mysql_bk.sql
-- description: Looses connection to the server.
-- bug-type: Crash; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- Crash bug: the only expectation is the liveness probe at the end.
/* init */ CREATE TABLE `t_fhw96d` (
  `c_gsj0eb` int(11) DEFAULT NULL,
  `c_wh8ptc` double DEFAULT NULL,
  `c_bnoakb` int(11) DEFAULT NULL,
  `c_ny8gr` double DEFAULT NULL,
  `c_rxsigd` double DEFAULT NULL,
  `c_cqgvo` double DEFAULT NULL,
  `c_ncaqz` int(11) NOT NULL,
  `c_qm1ixc` int(11) DEFAULT NULL,
  `c_u2_5wc` text DEFAULT NULL,
  PRIMARY KEY (`c_ncaqz`) /*T![clustered_index] CLUSTERED */
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
/* init */ INSERT INTO `t_fhw96d` VALUES (48,69.7,37,11.16,2147483648.1,38.6,-96,41,'__achb'),(12,87.2,53,82.55,89.96,59.78,2,63,'0f77i'),(19,NULL,1,37.35,52.93,16.87,13,28,'kxsnnc'),(52,39.26,671088640,5.91,2147483648.1,13.26,14,8,'3mjyfb'),(64,40.17,70,58.43,72.21,55.98,20,45,NULL),(37,98.72,22,6.2,51.61,17.12,45,86,'svkpkc'),(1,78.59,20,NULL,91.83,81.98,54,13,'713136717063'),(81,81.56,2,NULL,70.84,NULL,58,22,'icwdjc'),(21,88.86,4,88.15,93.7,48.44,63,19,'tvys0'),(54,72.6,0,NULL,47.41,95.23,73,15,'vh3xvc'),(3920,26.16,46,91.74,9.2,49.29,83,10,'ggjvfc'),(28,62.31,75,79.53,3.57,45.58,97,17,'wxtadc');
/* init */ CREATE TABLE `t_x0zovd` (
  `c_s_x8wd` int(11) DEFAULT NULL,
  `c_xru7m` text DEFAULT NULL,
  `c_3nbzub` double NOT NULL,
  `c_xlxih` int(11) DEFAULT NULL,
  `c_to6g3c` text DEFAULT NULL,
  `c_hndnw` text DEFAULT NULL,
  PRIMARY KEY (`c_3nbzub`) /*T![clustered_index] NONCLUSTERED */
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
/* init */ INSERT INTO `t_x0zovd` VALUES (16,NULL,22.14,80,NULL,NULL);
/* t1 */ WITH
cte_0 AS (
select distinct
avg(0) over w_ap1h0c as c2
from
(select
ref_0.c7 as c3,
ref_0.c1 as c10
from
t_ai_sq as ref_0
) as subq_0
window w_ap1h0c as ( partition by subq_0.c3 order by (subq_0.c3 - case when subq_0.c10 in (
select null as c0) then subq_0.c3 else subq_0.c3 end ) desc))
select 1;
/* t1 */ select 1;
-- Liveness probe added by the corpus (not part of the PoC): after a crash this fails.
/* t2 */ SELECT 1;  -- expect: rows [1]
