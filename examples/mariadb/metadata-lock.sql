-- id: mariadb-metadata-lock
-- title: A schema change waits for the metadata lock an open transaction holds on its table until that transaction ends
-- dbms: MariaDB 10.11
-- isolation: repeatable-read
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT) ENGINE = InnoDB;
/* init */ INSERT INTO t VALUES (1, 10);
/* t1 */ BEGIN;
/* t1 */ SELECT v FROM t WHERE k = 1;          -- expect: rows [10]
/* t2 */ CREATE INDEX t_v ON t(v);             -- expect: blocked then ok
/* t1 */ COMMIT;                               -- expect: ok
-- expect final: t = [(1, 10)]
