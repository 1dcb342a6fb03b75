-- id: TIDB-39851
-- title: Select does not throw errors when running concurently.
-- link: https://github.com/pingcap/tidb/issues/39851
-- dbms: TiDB v6.4.0
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-39851.txt scenario_0
-- description: Select does not throw errors when running concurently.
-- bug-type: Missing warning; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- TiDB-specific INL_JOIN hint; no expectation.
/* init */ CREATE TABLE t (c1 INT, c2 INT);
/* init */ INSERT INTO t VALUES (1, 1);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t1 */ SELECT c1 FROM t WHERE c2 FOR UPDATE;
/* t2 */ SELECT /*+ INL_JOIN(t)*/c1 FROM t WHERE c2<=c1 FOR UPDATE;
/* t1 */ COMMIT;
/* t2 */ COMMIT;
