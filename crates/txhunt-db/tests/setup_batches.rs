//! Setup statements sent in batches (MariaDB's multi-statements, a PostgreSQL simple query)
//! answer one outcome each and leave what one-by-one execution leaves, a failure in the
//! middle included.

use txhunt_db::{open_target, SessionConfig, Target};
use txhunt_model::{Isolation, Outcome, Value};

const CONFIG: SessionConfig = SessionConfig {
    isolation: Isolation::ReadCommitted,
    mode: None,
};

/// Runs `setup` on a fresh database of `target`: the outcomes, and the keys in `t`.
fn run_setup(target: &dyn Target, setup: &[&str]) -> (Vec<Outcome>, Vec<i64>) {
    let db = target.create_database().expect("a database");
    let mut session = db.connect(CONFIG, None).expect("a session");
    let outcomes = session.execute_setup(setup);
    drop(session);
    let state = db.final_state().expect("the final state");
    let keys = (state.table("t").unwrap_or_default().iter())
        .map(|row| match row[0] {
            Value::Int(k) => k,
            ref other => panic!("a key: {other:?}"),
        })
        .collect();
    (outcomes, keys)
}

/// What every target must give for a setup whose third statement fails.
fn a_failure_in_the_middle_stops_nothing_after_it(target: &dyn Target) {
    let setup = [
        "CREATE TABLE t(k INT PRIMARY KEY, v INT) -- a comment ends the line",
        "INSERT INTO t VALUES (1, 10), (2, 20)",
        "INSERT INTO t VALUES (1, 11)",
        "INSERT INTO t VALUES (3, 30)",
    ];
    let (outcomes, keys) = run_setup(target, &setup);
    assert_eq!(outcomes.len(), 4, "{outcomes:?}");
    assert!(outcomes[0].succeeded(), "{outcomes:?}");
    assert_eq!(outcomes[1], Outcome::Affected { count: 2 });
    assert!(outcomes[2].error().is_some(), "{outcomes:?}");
    assert_eq!(outcomes[3], Outcome::Affected { count: 1 });
    assert_eq!(keys, [1, 2, 3]);
}

#[test]
fn mariadb_setup_batches_answer_each_statement() {
    let target = open_target("mariadb", None).expect("the testbed starts");
    a_failure_in_the_middle_stops_nothing_after_it(target.as_ref());
}

#[test]
fn postgres_setup_batches_answer_each_statement() {
    let target = open_target("postgres", None).expect("the testbed starts");
    a_failure_in_the_middle_stops_nothing_after_it(target.as_ref());
    // All succeed in one batch; a write's RETURNING rows come back typed.
    let (outcomes, keys) = run_setup(
        target.as_ref(),
        &[
            "CREATE TABLE t(k INT PRIMARY KEY, v TEXT)",
            "INSERT INTO t VALUES (1, 'a')",
            "INSERT INTO t VALUES (2, 'b') RETURNING k, v",
        ],
    );
    assert_eq!(outcomes[1], Outcome::Affected { count: 1 });
    assert_eq!(
        outcomes[2],
        Outcome::Rows {
            columns: vec!["k".into(), "v".into()],
            rows: vec![vec![Value::Int(2), Value::Text("b".into())]],
        }
    );
    assert_eq!(keys, [1, 2]);
}
