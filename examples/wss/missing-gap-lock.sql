-- id: writecheck-listing-6
-- title: No gap locks below repeatable-read: T2 inserts into the range T1 deleted
-- link: https://doi.org/10.14778/3712221.3712229
-- dbms: TiDB / MySQL / MariaDB at read-committed
-- isolation: read-committed
-- Paper 001 Listing 6: without gap locks the INSERT does not conflict with the range DELETE;
-- the final state {6} differs from the serial state {} (T2 → T1).
/* init */ CREATE TABLE t(c1 INT);
/* init */ INSERT INTO t(c1) VALUES (3);
/* t1 */ BEGIN;
/* t1 */ DELETE FROM t WHERE c1 BETWEEN 1 AND 10;   -- expect: affected 1
/* t2 */ BEGIN;
/* t2 */ INSERT INTO t(c1) VALUES (5);             -- expect: affected 1
/* t2 */ COMMIT;
/* t1 */ UPDATE t SET c1 = c1 + 1;                 -- expect: affected 1
/* t1 */ COMMIT;
-- expect final: t = [(6)]
