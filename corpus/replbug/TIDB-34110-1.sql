-- id: TIDB-34110-1
-- title: Rollback does not revert autoincemented keys
-- link: https://github.com/pingcap/tidb/issues/34110
-- dbms: TiDB v6.1.0
-- isolation: read-committed, repeatable-read
-- mode: optimistic
-- source: ReplBug thesis (paper 003), replbug/TIDB-34110.txt scenario_1, setup from replbug-sql/TIDB-34110_mysql_bk.sql
-- description: Rollback not handled properly, the two scenarios should give the same result
-- bug-type: Incorrect database state; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- Differential pair: scenario_0 and scenario_1 of this bug should give the same results; the corpus cannot state the correct rows without recomputing them from the dump, so no expectation is written. Compare <ID>.sql with <ID>-1.sql.
/* init */ CREATE TABLE `t_nvues` (
  `wkey` int(11) DEFAULT NULL,
  `pkey` int(11) NOT NULL AUTO_INCREMENT,
  `c_709vdd` double DEFAULT NULL,
  `c_gsbzrd` text DEFAULT NULL,
  `c_bsydab` int(11) DEFAULT NULL,
  `c_vm9_pb` int(11) DEFAULT NULL,
  `c_hdnifc` double DEFAULT NULL,
  `c_dzs4sc` double DEFAULT NULL,
  `c_h1m_zb` text DEFAULT NULL,
  PRIMARY KEY (`pkey`) /*T![clustered_index] CLUSTERED */
) ENGINE=InnoDB AUTO_INCREMENT=110001 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
/* init */ INSERT INTO `t_nvues` VALUES (3,16000,16.54,'6zetkb',NULL,NULL,89.78,5.9,NULL),(3,17000,66.3,'nqckfc',NULL,NULL,26.44,8.74,'ny_pe'),(3,18000,84.53,'c8ujnd',NULL,NULL,12.98,17.51,'bo7lkd'),(3,19000,27.15,'_51jzd',NULL,NULL,74.1,100.23,'2qiqcc'),(3,20000,40.13,'9wwdt',NULL,NULL,18.73,2147483648.1,NULL),(4,21000,46.7,'lknmlc',NULL,NULL,2.83,NULL,'_uxcvc'),(4,22000,96.52,'em5p2b',NULL,NULL,34.16,NULL,'xiqo6'),(4,23000,17.6,'baqlqb',NULL,NULL,27.22,NULL,'qlygr'),(4,24000,95.74,'cyzbk',NULL,NULL,NULL,NULL,'hnx3a'),(4,25000,NULL,NULL,NULL,NULL,66.94,NULL,'97dl7'),(4,26000,81.96,'ge_bqb',NULL,NULL,NULL,NULL,'03umbc'),(7,38000,81.98,'t485ad',NULL,NULL,29.15,22.86,'peu0vc'),(9,42000,84.62,'2ok1ab',NULL,NULL,NULL,25.26,NULL),(9,43000,1.8,'op818',NULL,NULL,NULL,52.39,NULL),(9,44000,47.16,'rf494b',NULL,NULL,NULL,64.6,NULL),(9,45000,98.15,'h9nisc',NULL,NULL,NULL,24.31,NULL),(9,46000,54.84,'_l4gfb',NULL,NULL,NULL,80.68,NULL),(11,49000,98.28,'szhlzd',NULL,NULL,92.51,6.81,NULL),(11,50000,68.54,NULL,NULL,NULL,13.1,NULL,NULL),(11,51000,25.2,'dmmf_c',NULL,NULL,36.7,NULL,NULL),(12,52000,NULL,'q2o3y',NULL,NULL,82.34,2147483648.1,'086z5b'),(12,53000,NULL,NULL,NULL,NULL,75.68,9.37,'kkjfob'),(12,54000,NULL,NULL,NULL,NULL,97.28,60.26,'8atnhb'),(12,55000,NULL,'vczi_b',NULL,NULL,10.94,NULL,'jb410'),(12,56000,NULL,'yudg8d',NULL,NULL,93.3,64.12,'1kk_1c'),(13,57000,7.63,'pij6ub',NULL,NULL,NULL,89.67,'js_3db'),(13,58000,69.42,NULL,NULL,NULL,NULL,85.44,'ivr8ed'),(13,59000,8.62,NULL,NULL,NULL,NULL,22.74,'3moqvb'),(13,60000,86.62,'vw84ab',NULL,NULL,NULL,51.73,'v7hpkc'),(13,61000,37.93,'s4qvi',NULL,NULL,NULL,48.51,'6n_red'),(13,62000,83.22,'v8ur9b',NULL,NULL,NULL,23.75,'pctdvd'),(15,69000,NULL,NULL,NULL,NULL,77.2,86.1,NULL),(15,70000,8.8,NULL,NULL,NULL,90.2,92.12,NULL),(15,71000,15.14,NULL,NULL,NULL,77.55,94.1,NULL),(15,72000,29.6,NULL,NULL,NULL,67.76,62.46,NULL),(15,73000,19.68,NULL,NULL,NULL,99.61,52.83,NULL),(16,74000,31.28,'pj3upd',NULL,NULL,59.37,47.54,'a8frud'),(16,75000,26.68,'oozpkd',NULL,NULL,32.31,80.55,'dgjor'),(16,76000,NULL,'l7bldc',NULL,NULL,33.56,NULL,'nwpgc'),(16,77000,4.87,'nwqkzc',NULL,NULL,89.8,81.84,'6razf'),(16,78000,50.97,'sciw7',NULL,NULL,93.8,45.33,'m06g5'),(17,79000,51.35,NULL,NULL,NULL,31.21,31.62,'2vriic'),(17,80000,70.69,NULL,NULL,NULL,34.96,71.71,'r65cdc'),(18,81000,NULL,'pqhqi',NULL,NULL,62.7,9.38,'gvyi8d'),(18,82000,NULL,'ichndc',NULL,NULL,7.59,85.3,'qo0ec'),(18,83000,NULL,NULL,NULL,NULL,76.5,1.83,'jqihgd'),(18,84000,NULL,'wqzsf',NULL,NULL,91.1,86.38,'n6owid'),(18,85000,NULL,'xnyo0b',NULL,NULL,63.7,87.38,'gsblab'),(18,86000,NULL,'ueuosb',NULL,NULL,15.97,2147483648.1,'n0i6mc');
/* init */ CREATE TABLE `t_zcfqb` (
  `wkey` int(11) DEFAULT NULL,
  `pkey` int(11) NOT NULL AUTO_INCREMENT,
  `c_rvm_p` text DEFAULT NULL,
  `c_dl_pmd` int(11) DEFAULT NULL,
  `c_avevqc` text DEFAULT NULL,
  `c_ywxlqb` double DEFAULT NULL,
  `c_sqqbbd` int(11) DEFAULT NULL,
  `c_2wz8nc` text DEFAULT NULL,
  `c_qyxu0` double DEFAULT NULL,
  `c_slu2bd` int(11) DEFAULT NULL,
  `c_ph8nh` text DEFAULT NULL,
  PRIMARY KEY (`pkey`) /*T![clustered_index] CLUSTERED */
) ENGINE=InnoDB AUTO_INCREMENT=77001 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
/* init */ INSERT INTO `t_zcfqb` VALUES (1,11000,NULL,NULL,'1v_ep',93.41,NULL,'5fszjb',20.62,NULL,NULL),(1,12000,NULL,NULL,'pihg7b',68.64,NULL,'w7awud',NULL,NULL,NULL),(1,13000,NULL,NULL,'nmd9bb',65.72,NULL,'uclav',35.94,NULL,NULL),(2,14000,'ugphl',NULL,'g6vv9b',31.33,NULL,NULL,13.66,NULL,'dmpqn'),(2,15000,'lh1ib',NULL,NULL,NULL,NULL,'jlrswd',13.94,NULL,'nabqz'),(5,27000,'dhinl',NULL,'zj_nbc',75.31,NULL,'h7xnob',21.35,NULL,NULL),(5,28000,NULL,NULL,NULL,37.6,NULL,'zcymv',21.96,NULL,NULL),(5,29000,'i1hli',NULL,'sjyon',37.15,NULL,'1xmukd',94.28,NULL,NULL),(5,30000,'bmaye',NULL,'rz_35b',91.28,NULL,'cakm_',47.38,NULL,NULL),(5,31000,NULL,NULL,'thjg7b',82.15,NULL,'abt6sd',57.28,NULL,NULL),(5,32000,'zalmmc',NULL,'jowifd',40.93,NULL,'bt65hd',14.95,NULL,NULL),(6,33000,'h9detd',NULL,'jswurc',NULL,NULL,'5y49vb',62.28,NULL,'d5giud'),(6,34000,'ryoav',NULL,'_fjo_b',NULL,NULL,'nmezub',76.21,NULL,'kdjuad'),(6,35000,'ly4h4d',NULL,'a6gurc',NULL,NULL,NULL,48.75,NULL,'3ed_h'),(6,36000,'lpaxz',NULL,'0jrii',NULL,NULL,'dhysab',6.85,NULL,'okjfqb'),(6,37000,'ezxn4d',NULL,'dsbil',NULL,NULL,'fzken',43.47,NULL,'b25zoc'),(8,39000,NULL,NULL,NULL,19.76,NULL,'i6hvrc',NULL,NULL,NULL),(8,40000,NULL,NULL,NULL,96.65,NULL,'4colf',NULL,NULL,NULL),(8,41000,NULL,NULL,NULL,83.45,NULL,'e7hij',NULL,NULL,NULL),(10,47000,'uc_3b',NULL,'xouk5',60.83,NULL,'fcr3rd',92.68,NULL,'8fox9c'),(10,48000,'cv_7vd',NULL,'9gxjk',24.98,NULL,'jrh_k',52.54,NULL,'hpwxtc'),(14,63000,NULL,NULL,'vmwcgb',44.44,NULL,'tquhq',15.29,NULL,'z3pqec'),(14,64000,NULL,NULL,'d8jnsc',NULL,NULL,'ies2fd',27.16,NULL,'7rh_ub'),(14,65000,NULL,NULL,'z4dpwc',100.89,NULL,'uokgt',51.39,NULL,NULL),(14,66000,NULL,NULL,'js1iw',70.11,NULL,'4rvlv',52.36,NULL,'mh2fuc'),(14,67000,NULL,NULL,'po9ouc',2.27,NULL,'0n1h5',91.1,NULL,NULL),(14,68000,NULL,NULL,'q_42_b',NULL,NULL,'folncc',62.5,NULL,'8_cw6d');
/* t1 */ BEGIN OPTIMISTIC;
/* t1 */ insert into t_zcfqb (wkey, c_rvm_p, c_avevqc, c_ywxlqb, c_sqqbbd, c_2wz8nc, c_qyxu0, c_ph8nh)
select
121 as c0,
ref_0.c_h1m_zb as c1,
ref_0.c_gsbzrd as c2,
ref_0.c_hdnifc as c3,
(select wkey from t_nvues order by wkey limit 1 offset 5)
as c4,
ref_0.c_h1m_zb as c5,
ref_0.c_hdnifc as c6,
ref_0.c_h1m_zb as c7
from
t_nvues as ref_0
where (0 <> 0)
or (ref_0.wkey is not NULL);
/* t1 */ select pkey from t_zcfqb where wkey = 121;
/* t1 */ COMMIT;
