-- id: MDEV-29585
-- title: Adding additional filters in WHERE changes the value of rows
-- link: https://jira.mariadb.org/browse/MDEV-29585
-- dbms: MariaDB 10.8.3
-- isolation: read-uncommitted, read-committed, repeatable-read, serializable
-- source: ReplBug thesis (paper 003), replbug/MDEV-29585.txt scenario_0
-- description: The two returned tables should be equal.
-- bug-type: Incorrect query result; levels where it manifested (correlation sheet): read-uncommitted, read-committed, repeatable-read, serializable
-- buggy: The first query (EXISTS over a one-row window subquery) returned a different result than the same query with "or 17 <> 0".
/* t1 */ START TRANSACTION;
/* t1 */ CREATE TABLE `t_rry5a` (
`wkey` int(11) DEFAULT NULL,
`pkey` int(11) NOT NULL,
`c_t4jlkc` int(11) DEFAULT NULL,
`c_a047t` text DEFAULT NULL,
`c_bhsf6d` double DEFAULT NULL,
`c_t9_mu` int(11) DEFAULT NULL,
PRIMARY KEY (`pkey`)
);
/* t1 */ insert into t_rry5a (wkey, pkey, c_t4jlkc, c_bhsf6d) values
(1052, 5800000, 1, 100);
/* t1 */ WITH
cte_0 AS (select
ref_0.wkey as c0,
ref_0.pkey as c1,
ref_0.c_t4jlkc as c2,
ref_0.c_a047t as c3,
ref_0.c_bhsf6d as c4,
ref_0.c_t9_mu as c5
from
t_rry5a as ref_0)
select
ref_2.c0 as c0,
ref_2.c1 as c1,
ref_2.c2 as c2,
ref_2.c3 as c3,
ref_2.c4 as c4,
ref_2.c5 as c5
from
cte_0 as ref_2
where exists (
select
FIRST_VALUE(ref_2.c4) over (partition by ref_2.c1) as c0
);  -- expect: rows [(1052, 5800000, 1, NULL, 100, NULL)]
/* t1 */ WITH
cte_0 AS (select
ref_0.wkey as c0,
ref_0.pkey as c1,
ref_0.c_t4jlkc as c2,
ref_0.c_a047t as c3,
ref_0.c_bhsf6d as c4,
ref_0.c_t9_mu as c5
from
t_rry5a as ref_0)
select
ref_2.c0 as c0,
ref_2.c1 as c1,
ref_2.c2 as c2,
ref_2.c3 as c3,
ref_2.c4 as c4,
ref_2.c5 as c5
from
cte_0 as ref_2
where exists (
select
FIRST_VALUE(ref_2.c4) over (partition by ref_2.c1) as c0
) or 17 <> 0;  -- expect: rows [(1052, 5800000, 1, NULL, 100, NULL)]
/* t1 */ COMMIT;
