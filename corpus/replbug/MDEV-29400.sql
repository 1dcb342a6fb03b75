-- id: MDEV-29400
-- title: The database system crashes
-- link: https://jira.mariadb.org/browse/MDEV-29400
-- dbms: MariaDB 10.8.3
-- isolation: read-uncommitted, read-committed, repeatable-read, serializable
-- source: ReplBug thesis (paper 003), replbug/MDEV-29400.txt scenario_0, setup from replbug-sql/MDEV-29400_mysql_bk.sql
-- description: Sometimes a different number of results are returned by SELECT.
-- bug-type: Crash; levels where it manifested (correlation sheet): read-uncommitted, read-committed, repeatable-read, serializable
-- Crash bug: the only expectation is the liveness probe at the end.
/* init */ CREATE TABLE `t__d8k3c` (
  `wkey` int(11) DEFAULT NULL,
  `pkey` int(11) NOT NULL,
  `c_hbvw0c` double DEFAULT NULL,
  `c_edvqhb` text DEFAULT NULL,
  `c_k_ff_c` double DEFAULT NULL,
  `c_ans1a` double DEFAULT NULL,
  `c_qepbcd` double DEFAULT NULL,
  `c_sygi8d` double DEFAULT NULL,
  `c_nyy8l` double DEFAULT NULL,
  `c_tfkk_b` int(11) DEFAULT NULL,
  `c_q0v2ad` text DEFAULT NULL,
  PRIMARY KEY (`pkey`)
) ENGINE=InnoDB DEFAULT CHARSET=latin1;
/* init */ INSERT INTO `t__d8k3c` VALUES
(1,11000,54.66,'oz1rac',NULL,26.21,71.98,NULL,NULL,19,'sjb61c'),
(1,12000,NULL,'0lix5',NULL,60.3,NULL,NULL,NULL,66,NULL),
(1,13000,71.65,'vqnysb',NULL,30.68,79.31,NULL,NULL,70,NULL),
(1,14000,99.12,'gjsbyd',NULL,92.27,79.5,NULL,NULL,92,'rqxrbd'),
(1,15000,5.51,'uxp9zb',NULL,9.45,54.39,NULL,NULL,69,'3kxj6d'),
(1,16000,47.18,NULL,NULL,89.86,59.55,NULL,NULL,60,'pergjc'),
(1,17000,82.87,'7aiptd',NULL,NULL,14.96,NULL,NULL,92,'vs1oe'),
(5,31000,NULL,'ga8wgc',39.52,NULL,16.83,36.77,50.43,93,'jrjqvc'),
(5,32000,26.91,'hqiqxc',52.13,NULL,48.15,NULL,69.76,65,'k2vjab'),
(5,33000,91.59,'hxacyd',60.95,NULL,50.86,89.63,28.52,48,'oyfheb'),
(5,34000,60.5,NULL,NULL,NULL,61.5,81.42,32.1,70,'c2mbhd'),
(6,35000,49.37,'2zkegd',NULL,64.11,47.69,26.36,80.86,9,NULL),
(6,36000,83.15,'ldhrud',NULL,16.49,NULL,42.43,2147483648.1,67,NULL),
(6,37000,11.37,'ka3oud',NULL,55.95,98.25,22.82,31.8,45,NULL),
(6,38000,18.7,'ldq9ud',NULL,90.73,90.81,97.86,22.87,66,NULL),
(6,39000,44.2,'mxofic',NULL,69.47,24.5,76.5,NULL,90,NULL),
(6,40000,81.45,'_kyzcb',NULL,7.97,94.92,34.83,75.73,92,NULL),
(6,41000,72.74,'bkge2d',NULL,76.1,26.93,73.44,36.89,33,NULL),
(9,50000,75.65,'r6jg5b',28.65,NULL,6.11,1.78,NULL,27,'54skdc'),
(9,51000,9.4,'sceucb',23.78,NULL,66.6,44.4,89.81,48,'hx0jv'),
(9,52000,51.98,'qehblb',86.16,NULL,80.69,28.54,7.72,9,'5zzizc'),
(10,53000,41.34,'xzyof',97.19,NULL,66.68,51.1,19.41,61,NULL),
(10,54000,11.31,NULL,90.46,16.63,43.81,17.6,94.49,35,NULL),
(10,55000,NULL,NULL,NULL,32.56,38.64,97.55,95.5,70,NULL),
(10,56000,39.8,'xyy1od',82.1,31.79,NULL,2.8,37.52,36,NULL),
(13,67000,94.98,'1csvyc',2.67,79.96,54.93,NULL,NULL,92,NULL),
(13,68000,53.83,'iwejic',88.22,22.32,20.17,NULL,NULL,88,NULL),
(13,69000,74.14,'uobukb',17.9,72.64,26.57,NULL,NULL,28,NULL),
(13,70000,52.48,'epwufd',81.8,49.71,NULL,NULL,NULL,38,NULL);
/* init */ CREATE TABLE `t_nva8p` (
  `wkey` int(11) DEFAULT NULL,
  `pkey` int(11) NOT NULL,
  `c_k6oesd` double DEFAULT NULL,
  `c_zwobic` double DEFAULT NULL,
  PRIMARY KEY (`pkey`)
) ENGINE=InnoDB DEFAULT CHARSET=latin1;
/* init */ INSERT INTO `t_nva8p` VALUES
(2,18000,75.48,NULL),
(2,19000,68.62,NULL),
(2,20000,34.81,NULL),
(3,21000,NULL,28.37),
(3,22000,NULL,17.21),
(3,23000,NULL,89.23),
(3,24000,NULL,34.33),
(4,25000,57.36,59.87),
(4,26000,100.82,52.36),
(4,27000,6.5,59.9),
(4,28000,33.75,87.81),
(4,29000,47.51,31.1),
(4,30000,77.38,41.31),
(7,42000,37.87,NULL),
(7,43000,33.38,NULL),
(7,44000,75.67,NULL),
(8,45000,19.3,NULL),
(8,46000,14.12,3.3),
(8,47000,100.72,67.98),
(8,48000,42.18,94.65),
(8,49000,58.89,80.27),
(11,57000,NULL,61.9),
(11,58000,NULL,20.1),
(11,59000,NULL,1.33),
(11,60000,NULL,43.6),
(11,61000,NULL,18.22),
(12,62000,13.7,32.1),
(12,63000,4.48,43.52),
(12,64000,20.43,38.1),
(12,65000,87.1,81.16),
(12,66000,19.49,NULL),
(14,71000,81.66,NULL),
(14,72000,73.76,NULL),
(14,73000,49.34,NULL),
(14,74000,99.81,NULL),
(14,75000,83.5,NULL),
(14,76000,17.14,NULL),
(14,77000,NULL,NULL);
/* t1 */ START TRANSACTION;
/* t1 */ insert into t_nva8p (wkey, pkey, c_k6oesd, c_zwobic) values
(69, 41000, case when exists (
select
subq_0.c0 as c0,
subq_0.c3 as c1,
subq_0.c1 as c2,
subq_0.c0 as c3
from
(select distinct
ref_0.c_sygi8d as c0,
ref_0.c_edvqhb as c1,
ref_0.c_sygi8d as c2,
ref_0.c_ans1a as c3
from
t__d8k3c as ref_0
) as subq_0
where instr(
subq_0.c1,
subq_0.c1) < FIELD(
subq_0.c1,
nullif('h7hmnc',
subq_0.c1),
subq_0.c1,
subq_0.c1)) then 86.38 else 24.15 end
, 52.43);
/* t1 */ COMMIT;
-- Liveness probe added by the corpus (not part of the PoC): after a crash this fails.
/* t2 */ SELECT 1;  -- expect: rows [1]
