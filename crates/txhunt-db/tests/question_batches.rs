//! Statements run with `execute_all` (the DSG oracle's predicate questions: MariaDB's
//! multi-statements, a PostgreSQL simple query) answer as they do one by one: each its own
//! outcome, rows typed as a lone statement's are, and at a failure the batch stops after it
//! and leaves what the statements before it did.

use txhunt_db::{open_target, SessionConfig, Target};
use txhunt_model::{ErrorClass, Isolation, Outcome, Value};

const CONFIG: SessionConfig = SessionConfig {
    isolation: Isolation::RepeatableRead,
    mode: None,
};

/// The count a `SELECT COUNT(*)` outcome holds.
fn count(outcome: &Outcome) -> Value {
    match outcome {
        Outcome::Rows { rows, .. } if rows.len() == 1 => rows[0][0].clone(),
        other => panic!("a count: {other:?}"),
    }
}

/// What every target must answer for questions in the DSG oracle's shape (empty the table,
/// insert a version, count its matches), the last one inserting a duplicate key.
fn questions_answer_as_one_by_one(target: &dyn Target) {
    let db = target.create_database().expect("a database");
    let mut session = db.connect(CONFIG, None).expect("a session");
    let made = session.execute("CREATE TABLE t(k INT PRIMARY KEY, v INT)");
    assert!(made.succeeded(), "{made:?}");
    let questions = [
        "DELETE FROM t",
        "INSERT INTO t (k, v) VALUES (1, 10)",
        "SELECT COUNT(*) FROM t WHERE v > 5",
        "DELETE FROM t",
        "INSERT INTO t (k, v) VALUES (2, 3)",
        "SELECT COUNT(*) FROM t WHERE v > 5",
        "INSERT INTO t (k, v) VALUES (2, 4)",
        "SELECT COUNT(*) FROM t",
    ];
    let answers = session.execute_all(&questions);
    assert_eq!(answers.len(), 7, "stops after the failure: {answers:?}");
    assert!(
        matches!(answers[1], Outcome::Affected { count: 1 }),
        "{answers:?}"
    );
    assert_eq!(count(&answers[2]), Value::Int(1));
    assert_eq!(count(&answers[5]), Value::Int(0));
    let failed = answers[6].error().expect("the duplicate key fails");
    assert_eq!(failed.class, ErrorClass::Constraint, "{failed:?}");
    // What ran before the failure stays, as it does one statement at a time.
    let left = session.execute("SELECT k, v FROM t");
    let Outcome::Rows { rows, .. } = left else {
        panic!("{left:?}");
    };
    assert_eq!(rows, vec![vec![Value::Int(2), Value::Int(3)]]);
}

#[test]
fn mariadb_question_batches_answer_as_one_by_one() {
    let target = open_target("mariadb", None).expect("the testbed starts");
    questions_answer_as_one_by_one(target.as_ref());
}

#[test]
fn postgres_question_batches_answer_as_one_by_one() {
    let target = open_target("postgres", None).expect("the testbed starts");
    questions_answer_as_one_by_one(target.as_ref());
}
