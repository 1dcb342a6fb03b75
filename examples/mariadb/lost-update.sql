-- id: mariadb-lost-update
-- title: At repeatable-read InnoDB lets the second writer overwrite a value it read before the first commit
-- dbms: MariaDB 10.11
-- isolation: read-committed, repeatable-read
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT) ENGINE = InnoDB;
/* init */ INSERT INTO t VALUES (1, 10);
/* t1 */ BEGIN;
/* t1 */ SELECT v FROM t WHERE k = 1;          -- expect: rows [10]
/* t2 */ BEGIN;
/* t2 */ SELECT v FROM t WHERE k = 1;          -- expect: rows [10]
/* t1 */ UPDATE t SET v = 11 WHERE k = 1;      -- expect: affected 1
/* t2 */ UPDATE t SET v = 12 WHERE k = 1;      -- expect: blocked then affected 1
/* t1 */ COMMIT;                               -- expect: ok
/* t2 */ COMMIT;                               -- expect: ok
-- expect final: t = [(1, 12)]
