//! A PostgreSQL session goes back to its target's pool when its execution is done, and the
//! next execution that gets it finds it clean, whatever state it was left in: no transaction,
//! no setting, no temporary table of the last user, and the id it had.

use txhunt_db::{open_target, Connection, Database, SessionConfig};
use txhunt_model::{Isolation, Outcome, Value};

const CONFIG: SessionConfig = SessionConfig {
    isolation: Isolation::ReadCommitted,
    mode: None,
};

/// Runs `sql` on `session`, which must succeed.
fn run(session: &mut dyn Connection, sql: &str) -> Outcome {
    let outcome = session.execute(sql);
    assert!(outcome.succeeded(), "{sql}: {outcome:?}");
    outcome
}

/// The single value `sql` reads.
fn one(session: &mut dyn Connection, sql: &str) -> Value {
    match run(session, sql) {
        Outcome::Rows { rows, .. } if rows.len() == 1 => rows[0][0].clone(),
        other => panic!("{sql}: {other:?}"),
    }
}

/// Leaves a session after `ending` (its last statements, after it wrote a row, set a setting
/// and made a temporary table, all in a transaction block), then checks that the next session
/// is the same backend and clean.
fn a_session_left_so_comes_back_clean(db: &dyn Database, ending: &[&str]) {
    let mut left = db.connect(CONFIG, None).expect("a session");
    let id = left.session_id();
    run(left.as_mut(), "BEGIN");
    run(left.as_mut(), "INSERT INTO t VALUES (1)");
    run(left.as_mut(), "SET statement_timeout = 1234");
    run(left.as_mut(), "CREATE TEMP TABLE scratch(k INT)");
    for sql in ending {
        left.execute(sql);
    }
    drop(left);

    let mut next = db.connect(CONFIG, None).expect("a session");
    assert_eq!(
        next.session_id(),
        id,
        "the pool gives the same session back"
    );
    // Out of any transaction block: a statement starts its own transaction.
    assert_eq!(
        one(next.as_mut(), "SELECT now() = statement_timestamp()"),
        Value::Bool(true),
        "after {ending:?}"
    );
    assert_eq!(
        one(next.as_mut(), "SHOW statement_timeout"),
        Value::Text("0".into())
    );
    assert!(
        next.execute("SELECT * FROM scratch").error().is_some(),
        "the temporary table is gone after {ending:?}"
    );
    run(next.as_mut(), "DELETE FROM t");
}

#[test]
fn a_postgres_session_comes_back_clean_from_an_open_a_failed_or_an_ended_transaction() {
    let target = open_target("postgres", None).expect("the testbed starts");
    let db = target.create_database().expect("a database");
    let mut setup = db.connect(CONFIG, None).expect("a session");
    run(setup.as_mut(), "CREATE TABLE t(k INT PRIMARY KEY)");
    drop(setup);

    // Open: the row it wrote is rolled back.
    a_session_left_so_comes_back_clean(db.as_ref(), &[]);
    let mut check = db.connect(CONFIG, None).expect("a session");
    assert_eq!(one(check.as_mut(), "SELECT count(*) FROM t"), Value::Int(0));
    drop(check);
    // Failed.
    a_session_left_so_comes_back_clean(db.as_ref(), &["SELECT 1 / 0"]);
    // Ended by a COMMIT: its row stays.
    a_session_left_so_comes_back_clean(db.as_ref(), &["COMMIT"]);
}
