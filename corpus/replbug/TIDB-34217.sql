-- id: TIDB-34217
-- title: Nested operations make index out of range
-- link: https://github.com/pingcap/tidb/issues/34217
-- dbms: TiDB v6.1.0
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-34217.txt scenario_0, setup from replbug-sql/TIDB-34217_mysql_bk.sql
-- description: Looses connection to the server.
-- bug-type: Crash; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- Crash bug: the only expectation is the liveness probe at the end.
/* init */ CREATE TABLE `t__ti1_d` (
  `wkey` int(11) DEFAULT NULL,
  `pkey` int(11) NOT NULL,
  `c_l3pcj` double DEFAULT NULL,
  `c_ksp1hc` text DEFAULT NULL,
  `c_5vhjk` double DEFAULT NULL,
  `c_azzk8c` int(11) DEFAULT NULL,
  `c_g0jc6d` int(11) DEFAULT NULL,
  `c_jqg9yd` int(11) DEFAULT NULL,
  `c__qdjic` int(11) DEFAULT NULL,
  PRIMARY KEY (`pkey`) /*T![clustered_index] CLUSTERED */,
  KEY `t_bnu1bb` (`wkey`,`pkey`,`c_jqg9yd`),
  KEY `t_bl1red` (`wkey`,`c_l3pcj`,`c_5vhjk`,`c_azzk8c`,`c_g0jc6d`,`c_jqg9yd`,`c__qdjic`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
/* init */ INSERT INTO `t__ti1_d` VALUES (107,130000,NULL,'_dry8b',19.798874920631782,NULL,NULL,NULL,NULL);
/* init */ CREATE TABLE `t_yexe_d` (
  `wkey` int(11) DEFAULT NULL,
  `pkey` int(11) NOT NULL,
  `c_px23g` text DEFAULT NULL,
  `c_qpljbb` text DEFAULT NULL,
  `c_vqpj9c` double DEFAULT NULL,
  `c_jq8xvc` text DEFAULT NULL,
  `c_krnwjd` text DEFAULT NULL,
  `c_4ufgxd` double DEFAULT NULL,
  `c_ibx81c` int(11) DEFAULT NULL,
  PRIMARY KEY (`pkey`) /*T![clustered_index] CLUSTERED */
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
/* init */ INSERT INTO `t_yexe_d` VALUES (3,17000,'c3rq0b','veyde',87.91,NULL,NULL,80.89,NULL),(11,50000,'esdxsb',NULL,98.56,NULL,NULL,16.9,NULL),(14,60000,NULL,NULL,50.58,NULL,NULL,NULL,NULL),(14,61000,NULL,NULL,50.74,NULL,NULL,NULL,NULL),(142,63000,'7oo_zb',NULL,45.19,'0konkb','0konkb',45.19,63000);
/* t1 */ update t__ti1_d set
wkey = 37
where (case when 0 <> 0 then abs(
case when t__ti1_d.wkey > (
select
t__ti1_d.c_azzk8c as c0
from
t_yexe_d as ref_0
where 10 >= (select count(c_vqpj9c) from t_yexe_d)
window w_80pxn as ( partition by t__ti1_d.pkey order by ref_0.c_px23g desc)
order by c0 desc
) then 1 else 20 end
) else 1 end * 53) > 1;
/* t1 */ select * from t__ti1_d;
-- Liveness probe added by the corpus (not part of the PoC): after a crash this fails.
/* t2 */ SELECT 1;  -- expect: rows [1]
