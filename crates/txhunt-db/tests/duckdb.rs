//! The DuckDB target (cargo feature `duckdb`): sessions of one in-memory instance, what its
//! statements answer, how its errors are classified, and that a conflicting edit fails at once.
#![cfg(feature = "duckdb")]

use txhunt_db::duckdb::DuckdbTarget;
use txhunt_db::{Connection, SessionConfig, Target};
use txhunt_model::{ErrorClass, Isolation, Outcome, Value};

const SNAPSHOT: SessionConfig = SessionConfig {
    isolation: Isolation::Snapshot,
    mode: None,
};

fn class(outcome: &Outcome) -> Option<ErrorClass> {
    outcome.error().map(|e| e.class)
}

fn session(db: &dyn txhunt_db::Database) -> Box<dyn Connection> {
    db.connect(SNAPSHOT, None).expect("a DuckDB session")
}

#[test]
fn duckdb_answers_rows_counts_and_classified_errors() {
    let target = DuckdbTarget::new().expect("libduckdb loads");
    assert!(target.version().starts_with("1."), "{}", target.version());
    let db = target.create_database().expect("a database");
    let mut a = session(db.as_ref());
    assert_eq!(
        a.execute("CREATE TABLE t(k INT PRIMARY KEY, v DECIMAL(10, 2))"),
        Outcome::Ok
    );
    assert_eq!(
        a.execute("INSERT INTO t VALUES (1, 1.5), (2, 2)"),
        Outcome::Affected { count: 2 }
    );
    assert_eq!(a.in_transaction(), Some(false));
    // A statement of another kind that answers rows answers them.
    match a.execute("SHOW TABLES") {
        Outcome::Rows { rows, .. } => assert_eq!(rows, [vec![Value::Text("t".into())]]),
        other => panic!("{other:?}"),
    }
    assert_eq!(a.execute("BEGIN"), Outcome::Ok);
    assert_eq!(a.in_transaction(), Some(true));
    match a.execute("UPDATE t SET v = v + 1 WHERE k = 1 RETURNING k, v") {
        Outcome::Rows { columns, rows } => {
            assert_eq!(columns, ["k", "v"]);
            assert_eq!(rows, [vec![Value::Int(1), Value::Decimal("2.50".into())]]);
        }
        other => panic!("{other:?}"),
    }
    // Rejected before it runs: the transaction goes on.
    assert_eq!(class(&a.execute("SELEC 1")), Some(ErrorClass::Syntax));
    assert_eq!(
        class(&a.execute("SELECT * FROM nope")),
        Some(ErrorClass::Syntax)
    );
    match a.execute("SELECT sum(k) AS s FROM t") {
        Outcome::Rows { rows, .. } => assert_eq!(rows, [vec![Value::Int(3)]]),
        other => panic!("{other:?}"),
    }
    // Raised while it runs: the transaction is aborted until ROLLBACK.
    assert_eq!(
        class(&a.execute("INSERT INTO t VALUES (2, 0)")),
        Some(ErrorClass::Constraint)
    );
    assert_eq!(class(&a.execute("SELECT 1")), Some(ErrorClass::Aborted));
    assert_eq!(a.execute("ROLLBACK"), Outcome::Ok);
    assert_eq!(a.in_transaction(), Some(false));
    let state = db.final_state().expect("the final state");
    assert_eq!(
        state.table("t").expect("table t").len(),
        2,
        "the rolled-back update is gone: {state:?}"
    );
}

#[test]
fn duckdb_refuses_a_second_edit_of_a_row_at_once() {
    let target = DuckdbTarget::new().expect("libduckdb loads");
    let db = target.create_database().expect("a database");
    let (mut a, mut b) = (session(db.as_ref()), session(db.as_ref()));
    a.execute("CREATE TABLE t(k INT PRIMARY KEY, v INT)");
    a.execute("INSERT INTO t VALUES (1, 0)");
    for c in [&mut a, &mut b] {
        assert_eq!(c.execute("BEGIN"), Outcome::Ok);
    }
    assert_eq!(
        a.execute("UPDATE t SET v = 1 WHERE k = 1"),
        Outcome::Affected { count: 1 }
    );
    assert_eq!(
        class(&b.execute("UPDATE t SET v = 2 WHERE k = 1")),
        Some(ErrorClass::Serialization)
    );
    assert_eq!(a.execute("COMMIT"), Outcome::Ok);
    assert_eq!(b.execute("ROLLBACK"), Outcome::Ok);
    assert!(db
        .connect(
            SessionConfig {
                isolation: Isolation::Serializable,
                mode: None
            },
            None
        )
        .is_err());
}
