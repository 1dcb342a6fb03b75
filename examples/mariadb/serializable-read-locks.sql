-- id: mariadb-serializable-read-locks
-- title: At serializable InnoDB turns plain reads into shared locks, so a writer waits for a reader
-- dbms: MariaDB 10.11
-- isolation: serializable
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT) ENGINE = InnoDB;
/* init */ INSERT INTO t VALUES (1, 10);
/* t1 */ BEGIN;
/* t1 */ SELECT v FROM t WHERE k = 1;          -- expect: rows [10]
/* t2 */ UPDATE t SET v = 20 WHERE k = 1;      -- expect: blocked then affected 1
/* t1 */ SELECT v FROM t WHERE k = 1;          -- expect: rows [10]
/* t1 */ COMMIT;                               -- expect: ok
-- expect final: t = [(1, 20)]
