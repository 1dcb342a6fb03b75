-- id: TIDB-30412
-- title: Insert fails in transaction
-- link: https://github.com/pingcap/tidb/issues/30412
-- dbms: TiDB v5.4.0
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-30412.txt scenario_0, setup from replbug-sql/TIDB-30412_mysql_bk.sql
-- description: In the second case, the insert fails, even though it should not.
-- bug-type: Unexpected error; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- buggy: Inside the transaction (scenario_1) the INSERT failed although it succeeds in autocommit mode (scenario_0).
-- No expectation: the recorded setup dump lacks table t_f32hfd, which the INSERT reads, so the INSERT fails on any DBMS with this setup.
/* init */ CREATE TABLE `t_rxrf9c` (
  `c_u3bwg` int(11) NOT NULL,
  `c_a_p8b` int(11) DEFAULT NULL,
  `c_09ew1d` double NOT NULL,
  `c_wylqr` int(11) DEFAULT NULL,
  PRIMARY KEY (`c_09ew1d`,`c_u3bwg`) /*T![clustered_index] NONCLUSTERED */
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
/* init */ INSERT INTO `t_rxrf9c` VALUES (6,24,53.56,59);
/* init */ CREATE TABLE `t_xkzvqb` (
  `c_0q_i3b` int(11) DEFAULT NULL,
  `c__ckpid` int(11) DEFAULT NULL,
  `c_s4e7jc` double DEFAULT NULL,
  `c_k_dsxd` text DEFAULT NULL,
  `c_ofdx2c` double NOT NULL,
  `c__9zs7d` int(11) DEFAULT NULL,
  PRIMARY KEY (`c_ofdx2c`) /*T![clustered_index] NONCLUSTERED */
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
/* init */ INSERT INTO `t_xkzvqb` VALUES (36,59,3.26,'li53c',83.25,6);
/* t1 */ delete from t_xkzvqb;
/* t1 */ insert into t_rxrf9c values
(41, case when EXISTS (
select distinct
ref_0.c2 as c2
from
t_f32hfd as ref_0
) then 1 else 0 end
, 74.4, 31);
/* t1 */ select * from t_rxrf9c;
