//! Driver errors reach people as sentences that name their cause: the DBMS's own message and
//! code, or the system's reason, never `db error` alone or the driver's `DriverError { … }`.

use txhunt_db::mysql::MysqlTarget;
use txhunt_db::postgres::PgTarget;
use txhunt_db::sqlite::SqliteTarget;
use txhunt_db::testbed::{Server, ServerKind};
use txhunt_db::turso::TursoTarget;
use txhunt_db::{SessionConfig, Target, TargetError};
use txhunt_model::{Isolation, Outcome};

fn start(kind: ServerKind) -> Server {
    Server::start(kind, None, None)
        .unwrap_or_else(|e| panic!("the {} testbed server must start: {e}", kind.name()))
}

/// A port of 127.0.0.1 where nothing listens (it was free a moment ago).
fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("its address").port()
}

/// The error's text, which must be a sentence: no `Name { … }` debug structure.
fn sentence(e: impl std::fmt::Display) -> String {
    let text = e.to_string();
    assert!(!text.contains(['{', '}']), "debug structure in: {text}");
    text
}

#[test]
fn postgres_refused_connection_names_the_cause() {
    let url = format!("postgres://postgres@127.0.0.1:{}/postgres", closed_port());
    let err = sentence(PgTarget::new(&url, None, None).err().expect("refused"));
    assert!(
        err.starts_with("connecting to the server: ") && err.contains("Connection refused"),
        "{err}"
    );
}

#[test]
fn postgres_missing_database_is_named_with_its_sqlstate() {
    let server = start(ServerKind::Postgres);
    let url = format!(
        "{}/txhunt_no_such_db",
        server
            .url()
            .strip_suffix("/postgres")
            .expect("a URL to a database")
    );
    let err = sentence(
        PgTarget::new(&url, None, None)
            .err()
            .expect("no such database"),
    );
    assert!(
        err.contains(r#"database "txhunt_no_such_db" does not exist"#) && err.contains("3D000"),
        "{err}"
    );
}

#[test]
fn mariadb_refused_connection_is_a_sentence() {
    let url = format!("mysql://root@127.0.0.1:{}", closed_port());
    let err = sentence(MysqlTarget::new(&url, None, None).err().expect("refused"));
    assert!(
        err.starts_with("connecting to the server: ") && err.contains("Connection refused"),
        "{err}"
    );
}

#[test]
fn mariadb_errors_after_the_server_died_are_sentences() {
    let mut server = start(ServerKind::Mariadb);
    let target = MysqlTarget::new(server.url(), None, None).expect("reachable");
    let db = target.create_database().expect("a database");
    let config = SessionConfig {
        isolation: Isolation::RepeatableRead,
        mode: None,
    };
    let mut session = db.connect(config, None).expect("a session");
    assert!(session.execute("SELECT 1").succeeded());
    server.kill();
    let Outcome::Error(e) = session.execute("SELECT 1") else {
        panic!("a statement on a dead server fails");
    };
    sentence(&e.message);
    sentence(
        db.connect(config, None)
            .err()
            .expect("no server to connect to"),
    );
    sentence(db.final_state().expect_err("no server to read from"));
}

#[test]
fn too_many_sessions_are_refused_naming_target_limit_and_count() {
    let targets: [Box<dyn Target>; 2] = [
        Box::new(SqliteTarget::new(None).expect("sqlite")),
        Box::new(TursoTarget::new(None, false).expect("turso")),
    ];
    for target in &targets {
        let limit = target.max_sessions();
        assert!(target.check_sessions(limit).is_ok(), "{}", target.name());
        let err = target
            .check_sessions(limit + 1)
            .expect_err("over the limit");
        assert!(
            matches!(err, TargetError::TooManySessions { asked, .. } if asked == limit + 1),
            "{err}"
        );
        assert_eq!(
            err.to_string(),
            format!(
                "{} runs at most {limit} sessions in one execution; the case has {}",
                target.name(),
                limit + 1
            )
        );
    }
}
