-- id: dt2-tidb33315
-- title: After a blocked DELETE resumes, SELECT in the same transaction still sees the old row
-- link: https://github.com/pingcap/tidb/issues/33315
-- dbms: TiDB
-- isolation: repeatable-read
-- mode: pessimistic
-- source: DT2 (paper 000), dt2/tidb33315.txt; bug list: dt2-bug-list.txt
-- upstream-status: Critical, Duplicate
-- buggy: TiDB returned [(1, 1)] for the SELECT after the DELETE (only with a clustered primary key; paper 000 Listing 1).
/* init */ CREATE TABLE t (c1 INT PRIMARY KEY, c2 INT);
/* init */ INSERT INTO t(c1, c2) VALUES (1, 1);
-- schedule 1-1-2-2-1-2-2
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET c1=2, c2=2;
/* t2 */ BEGIN;
/* t2 */ DELETE FROM t;
/* t1 */ COMMIT;
/* t2 */ SELECT * FROM t;  -- expect: rows []
/* t2 */ COMMIT;
-- expect final: t = []
