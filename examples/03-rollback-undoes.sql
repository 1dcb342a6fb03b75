-- id: rollback-undoes
-- title: ROLLBACK undoes every write of its transaction; a waiting writer then proceeds
-- dbms: SQLite
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v TEXT);
/* init */ INSERT INTO t VALUES (1, 'a');
/* t1 */ BEGIN;
/* t1 */ INSERT INTO t VALUES (2, 'b');        -- expect: affected 1
/* t1 */ DELETE FROM t WHERE k = 1;            -- expect: affected 1
/* t2 */ INSERT INTO t VALUES (3, 'c');        -- expect: blocked then affected 1
/* t1 */ SELECT k, v FROM t;                   -- expect: rows [(2, 'b')]
/* t1 */ ROLLBACK;                             -- expect: ok
-- expect final: t = [(1, 'a'), (3, 'c')]
