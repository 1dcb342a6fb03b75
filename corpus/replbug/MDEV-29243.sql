-- id: MDEV-29243
-- title: The server crashes
-- link: https://jira.mariadb.org/browse/MDEV-29243
-- dbms: MariaDB 10.8.3
-- isolation: read-uncommitted, read-committed
-- source: ReplBug thesis (paper 003), replbug/MDEV-29243.txt scenario_0, setup from replbug-sql/MDEV-29243_mysql_bk.sql
-- description: The bug causes a crash of the MariaDB server
-- bug-type: Crash; levels where it manifested (correlation sheet): read-uncommitted, read-committed
-- Crash bug: the only expectation is the liveness probe at the end.
/* init */ CREATE TABLE `t_8fjoxb` (
  `wkey` int(11) DEFAULT NULL,
  `pkey` int(11) NOT NULL,
  `c_yecif` text DEFAULT NULL,
  PRIMARY KEY (`pkey`),
  UNIQUE KEY `t_jioqrc` (`wkey`,`pkey`)
) ENGINE=InnoDB DEFAULT CHARSET=latin1;
/* init */ INSERT INTO `t_8fjoxb` VALUES
(2,17000,'72v9kd'),
(2,18000,'qnwwyd'),
(2,19000,NULL),
(2,20000,NULL),
(2,21000,'ypl5qd'),
(2,22000,'r_yb_b'),
(2,23000,'8ldecc'),
(5,35000,'275x9c'),
(5,36000,'mpwkw'),
(5,37000,'ectg3'),
(5,38000,'tc_wqb'),
(5,39000,'skrhrd'),
(5,40000,'mc1fcb'),
(5,41000,'3ckgid'),
(5,42000,'qixcqb'),
(6,43000,'rehhmc'),
(6,44000,NULL),
(6,45000,NULL),
(6,46000,'zhhau'),
(6,47000,'d0wpu'),
(6,48000,'axge2c'),
(6,49000,'5prsyb'),
(7,50000,'gjdrb'),
(7,51000,'feev2'),
(7,52000,'xniawd'),
(7,53000,'zo5agc'),
(10,65000,NULL),
(10,66000,'x1xi9d'),
(10,67000,'cg9fi'),
(10,68000,'q6dcw'),
(10,69000,'orvb2d'),
(11,70000,'kz0qy'),
(11,71000,'b3doad'),
(11,72000,'qpenm'),
(11,73000,'zfs7gb'),
(11,74000,'sozgcc'),
(11,75000,'hwsiu');
/* init */ CREATE TABLE `t_swbayb` (
  `wkey` int(11) DEFAULT NULL,
  `pkey` int(11) NOT NULL,
  `c_ywdp4d` text DEFAULT NULL,
  PRIMARY KEY (`pkey`),
  KEY `t_nbmaqb` (`wkey`,`pkey`),
  KEY `t_qo4xpb` (`wkey`)
) ENGINE=InnoDB DEFAULT CHARSET=latin1;
/* init */ INSERT INTO `t_swbayb` VALUES
(1,11000,'jfey0'),
(1,12000,'ueyevd'),
(1,13000,'opnhw'),
(1,14000,'xhwosb'),
(1,15000,'anhfmb'),
(1,16000,'ibzdk'),
(3,24000,'nqtskc'),
(3,25000,'cj_tk'),
(3,26000,'jsa_j'),
(3,27000,'_bgt3b'),
(3,28000,'aeqcnc'),
(3,29000,'krnsh'),
(3,30000,'i9whpc'),
(4,31000,'l9c9u'),
(4,32000,'uoo9h'),
(4,33000,'7tzuk'),
(4,34000,'j_lifc'),
(8,54000,NULL),
(8,55000,NULL),
(8,56000,NULL),
(8,57000,NULL),
(9,58000,NULL),
(9,59000,NULL),
(9,60000,NULL),
(9,61000,NULL),
(9,62000,NULL),
(9,63000,NULL),
(9,64000,NULL);
/* t2 */ START TRANSACTION;
/* t1 */ START TRANSACTION;
/* t2 */ delete from t_swbayb;
/* t1 */ insert into t_swbayb (wkey, pkey) values (88, 74000);
/* t2 */ insert into t_8fjoxb (wkey, pkey, c_yecif) values
(110, 115000, case when exists (
select
ref_0.wkey as c14
from
t_swbayb as ref_0
where (ref_0.pkey > (
select distinct
ref_1.wkey as c0
from
t_swbayb as ref_1
))) then 'vxg_w' else null end
);
/* t1 */ insert into t_swbayb (wkey, pkey, c_ywdp4d) values (90, 83000, 'vyenkd');
/* t1 */ COMMIT;
/* t2 */ COMMIT;
-- Liveness probe added by the corpus (not part of the PoC): after a crash this fails.
/* t3 */ SELECT 1;  -- expect: rows [1]
