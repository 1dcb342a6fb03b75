//! Server settings as part of a target (`mariadb?innodb_snapshot_isolation=ON`): the server
//! runs with them, the profile's claims follow them, the label shows them, and a setting the
//! server does not know is refused at start with the server's own words.

use txhunt_db::{open_target, testbed_profile, SessionConfig, Target};
use txhunt_model::{ErrorClass, Isolation, Outcome, Value};

const REPEATABLE_READ: SessionConfig = SessionConfig {
    isolation: Isolation::RepeatableRead,
    mode: None,
};

/// A lost update at REPEATABLE READ: the first session reads, the second updates and commits,
/// the first updates the row its snapshot shows as it was. What the first update did.
fn lost_update(target: &dyn Target) -> Outcome {
    let db = target.create_database().expect("a database");
    let mut a = db.connect(REPEATABLE_READ, None).expect("session a");
    let mut b = db.connect(REPEATABLE_READ, None).expect("session b");
    for sql in [
        "CREATE TABLE t (k INT PRIMARY KEY, v INT)",
        "INSERT INTO t VALUES (1, 0)",
    ] {
        assert!(a.execute(sql).succeeded(), "{sql}");
    }
    assert!(a.execute("BEGIN").succeeded());
    assert!(a.execute("SELECT v FROM t WHERE k = 1").succeeded());
    assert!(b.execute("UPDATE t SET v = v + 1 WHERE k = 1").succeeded());
    let update = a.execute("UPDATE t SET v = v + 1 WHERE k = 1");
    a.execute("ROLLBACK");
    update
}

#[test]
fn mariadb_snapshot_isolation_refuses_lost_updates() {
    let plain = open_target("mariadb", None).expect("the MariaDB testbed must start");
    assert_eq!(
        plain.profile().guarantee(Isolation::RepeatableRead).level,
        "PL-2 (snapshot reads)"
    );
    assert!(
        lost_update(plain.as_ref()).succeeded(),
        "plain MariaDB writes the newest version"
    );

    let spec = "mariadb?innodb_snapshot_isolation=ON";
    let target = open_target(spec, None).expect("MariaDB starts with innodb_snapshot_isolation");
    assert!(
        target.label().ends_with("?innodb_snapshot_isolation=ON"),
        "{}",
        target.label()
    );
    for profile in [target.profile(), testbed_profile(spec).expect("a testbed")] {
        assert_eq!(profile.guarantee(Isolation::RepeatableRead).level, "PL-SI");
        assert_eq!(profile.semantics().name, "mariadb-snapshot-isolation");
    }
    let refused = lost_update(target.as_ref());
    assert_eq!(
        refused.error().map(|e| (e.class, e.code.as_deref())),
        Some((ErrorClass::Serialization, Some("1020"))),
        "{refused}"
    );
}

#[test]
fn postgres_runs_with_its_settings() {
    let target = open_target("postgres?lock_timeout=4321&jit=off", None)
        .expect("PostgreSQL starts with the settings");
    assert!(
        target.label().ends_with("?lock_timeout=4321&jit=off"),
        "{}",
        target.label()
    );
    let db = target.create_database().expect("a database");
    let mut session = db.connect(REPEATABLE_READ, None).expect("a session");
    match session.execute("SHOW lock_timeout") {
        Outcome::Rows { rows, .. } => assert_eq!(rows[0][0], Value::Text("4321ms".into())),
        other => panic!("SHOW lock_timeout: {other}"),
    }
}

#[test]
fn unknown_settings_are_refused_at_start_in_the_servers_words() {
    for (spec, says) in [
        ("mariadb?txhunt_no_such_variable=1", "unknown variable"),
        (
            "postgres?txhunt_no_such_parameter=1",
            "unrecognized configuration parameter",
        ),
    ] {
        let err = open_target(spec, None)
            .err()
            .unwrap_or_else(|| panic!("{spec} started"))
            .to_string();
        assert!(err.contains(says), "{spec}: {err}");
    }
    let err = open_target("mariadb?innodb_snapshot_isolation", None)
        .err()
        .expect("refused")
        .to_string();
    assert!(err.contains("has no value"), "{err}");
}
