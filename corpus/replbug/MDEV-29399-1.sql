-- id: MDEV-29399-1
-- title: Rolled back operations make select produce different results
-- link: https://jira.mariadb.org/browse/MDEV-29399
-- dbms: MariaDB 10.8.3
-- isolation: read-uncommitted, read-committed, repeatable-read, serializable
-- source: ReplBug thesis (paper 003), replbug/MDEV-29399.txt scenario_1, setup from replbug-sql/MDEV-29399_mysql_bk.sql
-- description: The two scenarios should produce the same result.
-- bug-type: Incorrect query result; levels where it manifested (correlation sheet): read-uncommitted, read-committed, repeatable-read, serializable
-- Differential pair: scenario_0 and scenario_1 of this bug should give the same results; the corpus cannot state the correct rows without recomputing them from the dump, so no expectation is written. Compare <ID>.sql with <ID>-1.sql.
/* init */ CREATE TABLE `t_iz1jhb` (
  `wkey` int(11) DEFAULT NULL,
  `pkey` int(11) NOT NULL,
  `c_rieqr` double DEFAULT NULL,
  `c_pnfesd` text DEFAULT NULL,
  `c_pyw0fd` int(11) DEFAULT NULL,
  PRIMARY KEY (`pkey`)
) ENGINE=InnoDB DEFAULT CHARSET=latin1;
/* init */ INSERT INTO `t_iz1jhb` VALUES
(2,15000,85.1,NULL,22),
(2,16000,93.89,'fomv4b',10),
(2,17000,91.94,NULL,74),
(2,18000,98.43,'fiks0',41),
(3,19000,61.8,'xdaqs',74),
(3,20000,62.12,'a4hqzb',9),
(3,21000,89.59,'lwpvfd',64),
(3,22000,77.66,'yxxzgb',61),
(3,23000,81.47,NULL,94),
(4,24000,NULL,NULL,NULL),
(4,25000,87.37,NULL,NULL),
(4,26000,77.78,NULL,NULL),
(4,27000,55.91,NULL,NULL),
(8,38000,60.5,'tvi_pb',NULL),
(8,39000,27.83,'xxldod',NULL),
(8,40000,43.34,'zz8ba',NULL),
(8,41000,11.52,'bqriw',NULL),
(8,42000,NULL,NULL,NULL),
(8,43000,19.32,'xpyiid',NULL),
(12,55000,30.65,'ezcgac',67),
(12,56000,53.16,'ifrgyd',88),
(12,57000,45.4,'00u2vb',79),
(12,58000,5.16,'duboed',3),
(14,66000,40.21,'elzzbb',96),
(14,67000,9.7,'_5kw5d',59),
(14,68000,100.82,'bb2po',95),
(14,69000,89.47,'sl2jqd',2),
(14,70000,95.97,'wmvc',63),
(14,71000,15.87,NULL,61),
(14,72000,63.1,'hantfd',61),
(14,73000,NULL,'ez8yy',20);
/* init */ CREATE TABLE `t_j_eqsc` (
  `wkey` int(11) DEFAULT NULL,
  `pkey` int(11) NOT NULL,
  `c_r2ct0` int(11) DEFAULT NULL,
  `c_fm792b` double DEFAULT NULL,
  `c_lbwsvd` int(11) DEFAULT NULL,
  `c_2_hecd` text DEFAULT NULL,
  `c_iaswod` int(11) DEFAULT NULL,
  `c_mhoxvc` text DEFAULT NULL,
  PRIMARY KEY (`pkey`)
) ENGINE=InnoDB DEFAULT CHARSET=latin1;
/* init */ INSERT INTO `t_j_eqsc` VALUES
(6,32000,92,NULL,59,'8kef5d',4,NULL),
(6,33000,40,NULL,20,'optfvc',66,'ikzfdd'),
(6,34000,83,50.4,60,'z7bs6c',69,'f_58sb'),
(7,35000,12,41.21,31,'j45ne',28,NULL),
(7,36000,73,42.91,19,'nm4by',87,NULL),
(7,37000,86,41.55,43,'_y9uo',50,NULL),
(11,51000,NULL,31.32,8,NULL,NULL,NULL),
(11,52000,NULL,85.77,94,'goiqgb',NULL,NULL),
(11,53000,NULL,99.95,73,'scio7b',NULL,NULL),
(11,54000,NULL,58.55,60,'huom8',NULL,NULL);
/* init */ CREATE TABLE `t_xqlwp` (
  `wkey` int(11) DEFAULT NULL,
  `pkey` int(11) NOT NULL,
  `c_o9tn3d` text DEFAULT NULL,
  `c_nqwjm` text DEFAULT NULL,
  `c_xxmss` text DEFAULT NULL,
  `c_wthydc` double DEFAULT NULL,
  `c_w3gaz` text DEFAULT NULL,
  `c_l9gqbb` double DEFAULT NULL,
  `c_1fnn6d` text DEFAULT NULL,
  `c_ydnhic` int(11) DEFAULT NULL,
  `c_5eibb` text DEFAULT NULL,
  PRIMARY KEY (`pkey`)
) ENGINE=InnoDB DEFAULT CHARSET=latin1;
/* init */ INSERT INTO `t_xqlwp` VALUES
(1,11000,NULL,'el1cj','ht6q_d',63.94,'egitbc',NULL,NULL,NULL,'mdsrvd'),
(1,12000,NULL,'pauvgb','vjrbrb',58.54,'gcm4fb',NULL,NULL,NULL,NULL),
(1,13000,NULL,'g_w6e','mvsrqb',64.97,'58bvec',NULL,NULL,NULL,'3fntl'),
(1,14000,NULL,'2ce8id','dtw_nb',85.48,'qofob',NULL,NULL,NULL,NULL),
(5,28000,'i_q3ab','kyxcs','7jw2_c',57.1,'vryovb',12.92,'etkofb',NULL,'ssw8_c'),
(5,29000,'sg18ad','d5c2dd',NULL,82.85,'_qxq1d',32.75,NULL,NULL,'net5ob'),
(5,30000,'mxmgnb','qozbod','jblspd',35.54,'7vc7tc',67.74,'58iyjb',NULL,'i1kqec'),
(5,31000,'x0rf4d','c0ek3c','kakd_d',71.25,'dbtmoc',23.52,'ebrnjd',NULL,'gnei3'),
(9,44000,'u_6h7c','7l3kfb','_j_h0',37.24,NULL,97.46,'z5myn',57,NULL),
(9,45000,'04hebc','fkjbu',NULL,100.6,NULL,44.59,'xflix',10,NULL),
(9,46000,'knrvyc','iviytd','sscjtc',6.48,NULL,100.7,'iecreb',64,NULL),
(10,47000,'v4pkw',NULL,'mpm1xb',8.96,NULL,NULL,'t6x04b',NULL,'5c2d7b'),
(10,48000,'ivvlkb',NULL,NULL,24.73,NULL,NULL,'8dpvrc',NULL,'bsw_hc'),
(10,49000,'i85bwb',NULL,NULL,NULL,NULL,47.95,'qjkpb',NULL,NULL),
(10,50000,'tjk_rc',NULL,'xsmcw',21.2,NULL,2.38,NULL,NULL,'icyr6'),
(13,59000,NULL,NULL,'zekhr',NULL,NULL,51.44,'iwioqd',34,'dgun9'),
(13,60000,NULL,NULL,'f6ojhd',18.45,NULL,90.25,'rugol',56,'w5bab'),
(13,61000,NULL,NULL,'6jgb1',10.5,NULL,90.91,'m3wkbc',40,'mqa1fc'),
(13,62000,NULL,NULL,'vmlefb',31.74,NULL,76.24,'0kte5c',88,'pzm6vc'),
(13,63000,NULL,NULL,'eyfwn',6.4,NULL,25.2,'pyu5dc',28,'x3izob'),
(13,64000,NULL,NULL,'dkmroc',52.3,NULL,79.7,'46kfid',15,'6grgrc'),
(13,65000,NULL,NULL,'wwb4i',NULL,NULL,75.1,'roprxb',15,'cwkxk'),
(15,74000,'x_2gzd','eoq7tc','9lbzgd',53.49,'z_nxcb',NULL,'taqog',56,NULL),
(15,75000,'jdzcnc','lsapqd','y4ipxb',36.51,'iqoeid',NULL,NULL,60,NULL),
(15,76000,'wescdd',NULL,'ljszm',83.16,'i9ekcc',NULL,'kqb1bb',56,'dhy8c'),
(15,77000,NULL,'3nby_b','tqopyb',87.84,'ycwlhd',NULL,'frt1gc',46,'_zpy7'),
(15,78000,'7_etk','lodhgd','10_jsd',77.18,'5571j',NULL,'vrk_i',83,'mt_mpd'),
(15,79000,'p7n78','rmeirb','c_vgf',70.45,'i5_fnc',NULL,'bh7spc',54,NULL),
(15,80000,'ymcvpc','ckbzlc',NULL,80.89,'swlged',NULL,'vvjg5c',26,'nlfey');
/* t1 */ update t_j_eqsc set wkey = 37, c_fm792b = PI();
/* t1 */ select * from t_j_eqsc
where t_j_eqsc.c_fm792b not in (
select PI() as c0 from t_xqlwp as ref_0);
