-- id: TIDB-22658
-- title: read only transactions are read/write
-- link: https://github.com/pingcap/tidb/issues/22658
-- dbms: TiDB v4.0.0-beta.2
-- isolation: read-committed, repeatable-read
-- source: ReplBug thesis (paper 003), replbug/TIDB-22658.txt scenario_0
-- description: read only transactions are read/write
-- bug-type: Missing error; levels where it manifested (correlation sheet): read-committed, repeatable-read
-- buggy: The INSERT inside START TRANSACTION READ ONLY succeeded.
/* t1 */ CREATE TABLE t1 (a int);
/* t1 */ start transaction read only;
/* t1 */ insert into t1 values (1);  -- expect: error
