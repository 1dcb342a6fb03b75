-- id: TIDB-30587-1
-- title: Server crashes when running a nested transaction
-- link: https://github.com/pingcap/tidb/issues/30587
-- dbms: TiDB v5.4.0
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-30587.txt scenario_1, setup from replbug-sql/TIDB-30587_mysql_bk.sql
-- description: Looses connection to the server.
-- bug-type: Crash; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- Crash bug: the only expectation is the liveness probe at the end.
/* init */ CREATE TABLE `t_i9_d6` (
  `c_yjs4e` int(11) DEFAULT NULL,
  `c_slkwlb` int(11) NOT NULL,
  PRIMARY KEY (`c_slkwlb`) /*T![clustered_index] CLUSTERED */
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
/* init */ INSERT INTO `t_i9_d6` VALUES (NULL,0),(24,2),(79,3),(0,6),(6,10),(63,11),(NULL,13),(85,15),(87,30),(10,36),(61,38),(40,39),(50,42),(60,44),(41,54),(NULL,55),(56,63),(21,64),(85,66),(12,78),(33,86),(38,100),(71,1850);
/* init */ CREATE TABLE `t_yva4kd` (
  `c_ewsrpb` int(11) DEFAULT NULL,
  `c_14680` int(11) DEFAULT NULL,
  `c__oktod` int(11) DEFAULT NULL,
  `c_lgnyl` text DEFAULT NULL,
  `c_ymp3ib` int(11) DEFAULT NULL,
  `c_wszs1c` text DEFAULT NULL,
  `c_sjmctc` int(11) NOT NULL,
  `c_0mux4b` int(11) DEFAULT NULL,
  PRIMARY KEY (`c_sjmctc`) /*T![clustered_index] CLUSTERED */
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
/* init */ INSERT INTO `t_yva4kd` VALUES (1261568,59,15,'',53,'j0qw1d',11,5),(6,0,54,'o7ihdb',22,'noquob',17,51),(NULL,7,12,'wlf6yc',47,NULL,57,3),(29,14,76,'50uq0c',49,NULL,66,29),(2,17,98,NULL,86,'39357A3068',78,12),(51,4,5,NULL,NULL,'gl14nc',90,NULL),(54,35,64,'i74pnd',1,'yhvnod',1450,1);
/* t1 */ start transaction;
/* t1 */ insert into t_i9_d6 values (0, 1);
/* t1 */ insert into t_yva4kd
select
null as c0,
null as c1,
null as c2,
null as c3,
case when (
EXISTS (
select 1
from
t_d_6mnc as ref_10
where
EXISTS (
select 1
from
t_d_6mnc as ref_11
where ref_10.c6 not like 'gi5m%b')))
then null else 61.40 end as c4,
null as c5,
null as c6,
null as c7
from
t_i9_d6 as ref_2
where (('wntar' || '8kgpd')) like 'p_r0u';
/* t1 */ commit;
-- Liveness probe added by the corpus (not part of the PoC): after a crash this fails.
/* t2 */ SELECT 1;  -- expect: rows [1]
