-- id: instrumented-write-skew
-- title: Two transactions each read both rows and update a different one: the history shows both reads of the setup's versions
-- Used by crates/txhunt-exec/tests/instrumented.rs.
/* init */ CREATE TABLE doctors(k INT PRIMARY KEY, on_call INT);
/* init */ INSERT INTO doctors VALUES (1, 1), (2, 1);
/* t1 */ BEGIN;
/* t2 */ BEGIN;
/* t1 */ SELECT k FROM doctors WHERE on_call = 1;
/* t2 */ SELECT k FROM doctors WHERE on_call = 1;
/* t1 */ UPDATE doctors SET on_call = 0 WHERE k = 1;
/* t2 */ UPDATE doctors SET on_call = 0 WHERE k = 2;
/* t1 */ COMMIT;
/* t2 */ COMMIT;
