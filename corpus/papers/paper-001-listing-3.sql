-- id: paper-001-listing-3
-- title: DELETE ... WHERE CAST(TIDB_VERSION() AS DATE) OR c1 fails inside a transaction and leaves the row
-- link: https://github.com/pingcap/tidb/issues/39976
-- dbms: TiDB
-- isolation: read-committed, repeatable-read
-- source: WriteCheck paper (001), Listing 3 (a variant of replbug/TIDB-39976)
-- buggy: The DELETE reported an error and the row '1' remained (actual state {1}); the serial (statement-by-statement) state is {}.
-- TIDB_VERSION() is a TiDB function; on other DBMSs the DELETE fails for that reason alone.
/* init */ CREATE TABLE t(c1 TEXT(5));
/* t1 */ BEGIN;
/* t1 */ REPLACE INTO t(c1) VALUES ('1');
/* t1 */ DELETE FROM t WHERE CAST(TIDB_VERSION() AS DATE) OR c1;  -- expect: affected 1
/* t1 */ COMMIT;
-- expect final: t = []
