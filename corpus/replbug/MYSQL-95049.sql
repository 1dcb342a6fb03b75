-- id: MYSQL-95049
-- title: Locks are relased on rollback, even though documentation specifies they shouldn't.
-- link: https://bugs.mysql.com/bug.php?id=95049
-- dbms: MySQL 8.0.39
-- isolation: read-uncommitted, read-committed, repeatable-read, serializable
-- source: ReplBug thesis (paper 003), replbug/MYSQL-95049.txt scenario_0
-- description: Locks are relased on rollback, even though documentation specifies they shouldn't.
-- bug-type: Missing blocking; levels where it manifested (correlation sheet): read-uncommitted, read-committed, repeatable-read, serializable
-- buggy: ROLLBACK TO SAVEPOINT released the row lock taken after the savepoint, so the other transaction's UPDATE did not wait (the manual says the locks are kept).
/* init */ CREATE TABLE person (id INT NOT NULL AUTO_INCREMENT, name VARCHAR(255) NOT NULL, age INT NOT NULL, PRIMARY KEY (id)) ENGINE=InnoDB;
/* init */ INSERT INTO person (name, age) VALUES ('John Lin', 29);
/* t1 */ begin;
/* t1 */ SAVEPOINT somepoint;
/* t1 */ UPDATE person SET age = 30 WHERE id = 1;
/* t1 */ ROLLBACK TO somepoint;
/* t2 */ begin;
/* t2 */ UPDATE person SET age = 40 WHERE id = 1;  -- expect: blocked then affected 1
/* t1 */ commit;
