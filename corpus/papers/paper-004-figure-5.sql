-- id: paper-004-figure-5
-- title: READ COMMITTED set inside an open transaction: the next transaction reads another transaction's uncommitted update
-- link: https://bugs.mysql.com/bug.php?id=117835
-- dbms: MySQL
-- isolation: read-committed
-- source: APTrans paper (004), Figure 5 (MySQL Bug#117835)
-- buggy: txn 2's SELECT returned [0], the value written by txn 1, which then rolled back (dirty read).
-- The SET SESSION statements are kept: setting the level inside an open transaction is part of the trigger.
/* init */ CREATE TABLE tYv10enE (c0 INT PRIMARY KEY);
/* init */ INSERT INTO tYv10enE (c0) VALUES (10989748), (-1404643822);
/* t1 */ BEGIN;
/* t1 */ SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED;
/* t2 */ BEGIN;
/* t2 */ SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED;
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t1 */ UPDATE tYv10enE SET c0 = 0 WHERE c0 = 10989748;
/* t2 */ SELECT * FROM tYv10enE WHERE (c0 >= 0);  -- expect: rows [10989748]
/* t1 */ ROLLBACK;
/* t2 */ COMMIT;
-- expect final: tYv10enE = [(10989748), (-1404643822)]
