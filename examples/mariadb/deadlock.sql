-- id: mariadb-deadlock
-- title: Two transactions lock two rows in opposite orders; InnoDB rolls back the one that closes the cycle
-- dbms: MariaDB 10.11
-- isolation: read-uncommitted, read-committed, repeatable-read, serializable
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT) ENGINE = InnoDB;
/* init */ INSERT INTO t VALUES (1, 10), (2, 20);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t1 */ UPDATE t SET v = 11 WHERE k = 1;      -- expect: affected 1
/* t2 */ UPDATE t SET v = 22 WHERE k = 2;      -- expect: affected 1
/* t1 */ UPDATE t SET v = 12 WHERE k = 2;      -- expect: blocked then affected 1
/* t2 */ UPDATE t SET v = 21 WHERE k = 1;      -- expect: deadlock
/* t1 */ COMMIT;                               -- expect: ok
/* t2 */ COMMIT;                               -- expect: ok -- nothing left to commit
-- expect final: t = [(1, 11), (2, 12)]
