//! A database's final state holds every table of it, and only tables, each read as a
//! session's `SELECT *` reads it: the same values of the same types, whichever way the
//! target reads it in bulk.

use txhunt_db::{open_target, SessionConfig, Target};
use txhunt_model::{Isolation, Outcome, Row};

/// Sessions at `isolation`.
fn config(isolation: Isolation) -> SessionConfig {
    SessionConfig {
        isolation,
        mode: None,
    }
}

/// Runs `setup` on a fresh database of `target` (in a session at `isolation`) and checks its
/// final state: exactly `tables` (each its name in the state, lower-case, and as SQL spells
/// it), each as a session reads it, and none empty (so that a value of every type is
/// compared).
fn the_final_state_reads_each_table_as_a_session_does(
    target: &dyn Target,
    isolation: Isolation,
    setup: &[&str],
    tables: &[(&str, &str)],
) {
    let db = target.create_database().expect("a database");
    let mut session = db.connect(config(isolation), None).expect("a session");
    for sql in setup {
        let outcome = session.execute(sql);
        assert!(outcome.succeeded(), "{sql}: {outcome:?}");
    }
    let state = db.final_state().expect("the final state");
    let names: Vec<&str> = state.tables().map(|(name, _)| name).collect();
    let expected: Vec<&str> = tables.iter().map(|(name, _)| *name).collect();
    assert_eq!(names, expected, "{state:?}");
    for (name, sql_name) in tables {
        let Outcome::Rows { mut rows, .. } = session.execute(&format!("SELECT * FROM {sql_name}"))
        else {
            panic!("reading {sql_name}");
        };
        rows.sort();
        let read: &[Row] = &rows;
        assert!(!read.is_empty(), "{name} has rows");
        assert_eq!(state.table(name), Some(read), "table {name}");
    }
}

#[test]
fn a_postgres_final_state_holds_its_tables_only_with_their_types() {
    let target = open_target("postgres", None).expect("the testbed starts");
    the_final_state_reads_each_table_as_a_session_does(
        target.as_ref(),
        Isolation::ReadCommitted,
        &[
            "CREATE TABLE a(k SERIAL PRIMARY KEY, n NUMERIC(6,2), f DOUBLE PRECISION, b BOOLEAN, \
             y BYTEA, s TEXT, gone INT, big BIGINT)",
            "ALTER TABLE a DROP COLUMN gone",
            "INSERT INTO a(n, f, b, y, s, big) VALUES (1.5, 0.25, true, '\\x0aff', 'x', 9007199254740993), \
             (NULL, NULL, NULL, NULL, NULL, NULL)",
            "CREATE TABLE \"B\"(k INT PRIMARY KEY, v VARCHAR(3))",
            "INSERT INTO \"B\" VALUES (1, 'one')",
            "CREATE INDEX a_s ON a(s)",
            "CREATE VIEW w AS SELECT k FROM a",
            "CREATE SEQUENCE q",
            "CREATE TABLE e()",
            "INSERT INTO e DEFAULT VALUES",
            "CREATE TABLE g(gone INT)",
            "INSERT INTO g VALUES (1)",
            "ALTER TABLE g DROP COLUMN gone",
        ],
        &[("a", "a"), ("b", "\"B\""), ("e", "e"), ("g", "g")],
    );
}

#[test]
fn a_mariadb_final_state_holds_its_tables_only_with_their_types() {
    let target = open_target("mariadb", None).expect("the testbed starts");
    the_final_state_reads_each_table_as_a_session_does(
        target.as_ref(),
        Isolation::ReadCommitted,
        &[
            "CREATE TABLE a(k INT AUTO_INCREMENT PRIMARY KEY, n DECIMAL(6,2), f DOUBLE, b BOOLEAN, \
             y BLOB, s TEXT, gone INT, big BIGINT)",
            "ALTER TABLE a DROP COLUMN gone",
            "INSERT INTO a(n, f, b, y, s, big) VALUES (1.5, 0.25, true, x'0aff', 'x', 9007199254740993), \
             (NULL, NULL, NULL, NULL, NULL, NULL)",
            "CREATE TABLE `B`(k INT PRIMARY KEY, v VARCHAR(3))",
            "INSERT INTO `B` VALUES (1, 'one')",
            "CREATE INDEX a_s ON a(s(3))",
            "CREATE VIEW w AS SELECT k FROM a",
            "CREATE SEQUENCE q",
        ],
        &[("a", "a"), ("b", "`B`")],
    );
}

/// SQLite reads the final state through a connection kept open since the database was made:
/// read again after sessions changed tables and rows, it shows the change, not what it read
/// before (no snapshot or schema of its is left over from the earlier read).
#[test]
fn a_sqlite_final_state_read_again_shows_what_changed_since() {
    let target = open_target("sqlite", None).expect("SQLite opens");
    the_final_state_reads_each_table_as_a_session_does(
        target.as_ref(),
        Isolation::Serializable,
        &[
            "CREATE TABLE a(k INTEGER PRIMARY KEY, n REAL, s TEXT, y BLOB)",
            "INSERT INTO a VALUES (1, 0.25, 'x', x'0aff'), (2, NULL, NULL, NULL)",
            "CREATE TABLE \"B\"(k INT PRIMARY KEY, v TEXT)",
            "INSERT INTO \"B\" VALUES (1, 'one')",
            "CREATE VIEW w AS SELECT k FROM a",
        ],
        &[("a", "a"), ("b", "\"B\"")],
    );
    let db = target.create_database().expect("a database");
    let mut session = (db.connect(config(Isolation::Serializable), None)).expect("a session");
    for sql in ["CREATE TABLE a(k INT)", "INSERT INTO a VALUES (1)"] {
        assert!(session.execute(sql).succeeded(), "{sql}");
    }
    let before = db.final_state().expect("the final state");
    assert_eq!(before.table("a").map(<[Row]>::len), Some(1), "{before:?}");
    for sql in [
        "BEGIN",
        "DROP TABLE a",
        "CREATE TABLE c(k INT)",
        "INSERT INTO c VALUES (7), (8)",
        "COMMIT",
    ] {
        assert!(session.execute(sql).succeeded(), "{sql}");
    }
    let after = db.final_state().expect("the final state");
    let names: Vec<&str> = after.tables().map(|(name, _)| name).collect();
    assert_eq!(names, ["c"], "{after:?}");
    assert_eq!(after.table("c").map(<[Row]>::len), Some(2), "{after:?}");
}
