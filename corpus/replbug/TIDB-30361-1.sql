-- id: TIDB-30361-1
-- title: Adding order-by changes the result of selects inside transactions
-- link: https://github.com/pingcap/tidb/issues/30361
-- dbms: TiDB v5.4.0
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-30361.txt scenario_1, setup from replbug-sql/TIDB-30361_mysql_bk.sql
-- description: The two resulting tables are different.
-- bug-type: Incorrect query result; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- Differential pair: scenario_0 and scenario_1 of this bug should give the same results; the corpus cannot state the correct rows without recomputing them from the dump, so no expectation is written. Compare <ID>.sql with <ID>-1.sql.
/* init */ CREATE TABLE `t_q_zw9c` (
  `c_qpjzzd` int(11) NOT NULL,
  `c_1mp0eb` int(11) DEFAULT NULL,
  `c_3dcuc` double DEFAULT NULL,
  PRIMARY KEY (`c_qpjzzd`) /*T![clustered_index] CLUSTERED */
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
/* init */ INSERT INTO `t_q_zw9c` VALUES (0,100,38.34);
/* t1 */ start transaction;
/* t2 */ start transaction;
/* t1 */ select ref_14.c_qpjzzd as c1 from t_q_zw9c as ref_14;
/* t1 */ delete from t_q_zw9c;
/* t1 */ commit;
/* t2 */ select ref_14.c_qpjzzd as c1 from t_q_zw9c as ref_14;
/* t2 */ commit;
