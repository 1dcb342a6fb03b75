//! A connection told the schema is fixed (`Connection::schema_fixed`, as stress sessions are)
//! answers as one that is not: rows typed alike for statements of one shape whatever their
//! literals, writes to one table typed alike whatever they write when they return its own
//! columns, and typed anew after a statement that may have changed the schema.

use txhunt_db::{open_target, Connection, SessionConfig};
use txhunt_model::{Isolation, Outcome, Value};

const CONFIG: SessionConfig = SessionConfig {
    isolation: Isolation::ReadCommitted,
    mode: None,
};

/// The rows of `sql` on `session`.
fn rows(session: &mut dyn Connection, sql: &str) -> Vec<Vec<Value>> {
    match session.execute(sql) {
        Outcome::Rows { rows, .. } => rows,
        other => panic!("{sql}: {other:?}"),
    }
}

#[test]
fn a_postgres_session_with_a_fixed_schema_types_rows_as_one_without() {
    let target = open_target("postgres", None).expect("the PostgreSQL testbed starts");
    let db = target.create_database().expect("a database");
    let mut fixed = db.connect(CONFIG, None).expect("a session");
    let mut plain = db.connect(CONFIG, None).expect("a session");
    for sql in [
        "CREATE TABLE t(k INT PRIMARY KEY, v INT, w TEXT)",
        "CREATE TABLE u(k INT, z TEXT)",
        "INSERT INTO u VALUES (1, 'z')",
    ] {
        let made = fixed.execute(sql);
        assert!(made.succeeded(), "{sql}: {made:?}");
    }
    fixed.schema_fixed();
    let statements = [
        "INSERT INTO t VALUES (1, 10, 'a') ON CONFLICT (k) DO UPDATE SET v = excluded.v RETURNING *",
        "INSERT INTO t VALUES (2, 20, '2') ON CONFLICT (k) DO UPDATE SET v = excluded.v RETURNING *",
        "SELECT v, w, 7 FROM t WHERE k = 1",
        "SELECT v, w, 3000000000 FROM t WHERE k = 2",
        "SELECT v, w, 99999999999999999999 FROM t WHERE k = 2",
        "SELECT v, w, 7 FROM t WHERE k = 2",
        "SELECT v, w, 8 FROM t WHERE v > 0 AND w <> 'c' ORDER BY v LIMIT 1",
        // Writes that return the table's own columns share their types whatever they write.
        "UPDATE t SET v = 10 WHERE k = 1 RETURNING k, *",
        "UPDATE t SET w = 'b' WHERE v > 0 AND k = 2 RETURNING k, *",
        "DELETE FROM t WHERE k = 3 RETURNING k, *",
        // One with FROM returns the other table's columns too.
        "UPDATE t SET w = u.z FROM u WHERE t.k = u.k RETURNING *",
        "UPDATE t SET v = v WHERE k = 2 RETURNING *",
    ];
    for sql in statements {
        assert_eq!(
            rows(fixed.as_mut(), sql),
            rows(plain.as_mut(), sql),
            "{sql}"
        );
    }
    assert_eq!(
        rows(fixed.as_mut(), "SELECT v FROM t WHERE k = 1"),
        [[Value::Int(10)]]
    );
    // The column's type changes: the shape seen before is typed anew.
    let altered = fixed.execute("ALTER TABLE t ALTER COLUMN v TYPE TEXT");
    assert!(altered.succeeded(), "{altered:?}");
    assert_eq!(
        rows(fixed.as_mut(), "SELECT v FROM t WHERE k = 2"),
        [[Value::Text("20".into())]]
    );
}
