//! Databases (MariaDB) and schemas (PostgreSQL) are dropped by a thread of the target's, off
//! the executions' time, and the target waits for every drop it handed over before it goes
//! (its server must outlive them): here a drop is held up by another client's lock, and the
//! target's drop returns only once that client lets go.

use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;
use txhunt_db::mysql::MysqlTarget;
use txhunt_db::postgres::PgTarget;
use txhunt_db::testbed::{Server, ServerKind};
use txhunt_db::{SessionConfig, Target};
use txhunt_model::Isolation;

/// Creates a database on `target` with a table `t`.
fn database_with_a_table(target: &dyn Target) -> Box<dyn txhunt_db::Database> {
    let database = target.create_database().expect("created");
    let config = SessionConfig {
        isolation: Isolation::ReadCommitted,
        mode: None,
    };
    let mut session = database.connect(config, None).expect("connects");
    assert!(session.execute("CREATE TABLE t(k INT)").succeeded());
    database
}

/// Drops `target` on a thread of its own, and checks that it is still waiting a while later.
fn drop_waits(target: Box<dyn Target>) -> JoinHandle<()> {
    let dropping = std::thread::spawn(move || drop(target));
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        !dropping.is_finished(),
        "the target went before the drop it had handed over was done"
    );
    dropping
}

#[test]
fn a_mariadb_target_waits_for_the_databases_it_handed_to_its_dropper() {
    use mysql::prelude::Queryable;
    let server = Arc::new(Server::start(ServerKind::Mariadb, None, None).expect("starts"));
    let target = MysqlTarget::new(server.url(), None, Some(server.clone())).expect("opens");
    let database = database_with_a_table(&target);
    let mut other = mysql::Conn::new(mysql::Opts::from_url(server.url()).unwrap()).unwrap();
    let [name]: [String; 1] = (other.query("SHOW DATABASES LIKE 'txhunt\\_%'").unwrap())
        .try_into()
        .expect("one database");
    // A metadata lock on its table until COMMIT: DROP DATABASE waits for it.
    other.query_drop("START TRANSACTION").unwrap();
    other
        .query_drop(format!("SELECT * FROM `{name}`.t"))
        .unwrap();
    drop(database);
    let dropping = drop_waits(Box::new(target));
    other.query_drop("COMMIT").unwrap();
    dropping.join().expect("the target went");
    let left: Vec<String> = other.query("SHOW DATABASES LIKE 'txhunt\\_%'").unwrap();
    assert!(left.is_empty(), "left behind: {left:?}");
}

#[test]
fn a_postgres_target_waits_for_the_schemas_it_handed_to_its_dropper() {
    let server = Arc::new(Server::start(ServerKind::Postgres, None, None).expect("starts"));
    let target = PgTarget::new(server.url(), None, Some(server.clone())).expect("opens");
    let database = database_with_a_table(&target);
    let mut admin = postgres::Client::connect(server.url(), postgres::NoTls).expect("connects");
    let [name]: [String; 1] = (admin.query(
        "SELECT datname FROM pg_database WHERE datname LIKE 'txhunt\\_%'",
        &[],
    ))
    .unwrap()
    .iter()
    .map(|r| r.get(0))
    .collect::<Vec<String>>()
    .try_into()
    .expect("one database");
    let mut config: postgres::Config = server.url().parse().unwrap();
    config.dbname(&name);
    let mut other = config.connect(postgres::NoTls).expect("connects");
    let schema: String = other
        .query_one(
            "SELECT nspname::text FROM pg_namespace WHERE nspname LIKE 'txhunt\\_%'",
            &[],
        )
        .unwrap()
        .get(0);
    // A lock on its table until COMMIT: DROP SCHEMA … CASCADE waits for it.
    other.batch_execute("BEGIN").unwrap();
    other
        .batch_execute(&format!("SELECT * FROM \"{schema}\".t"))
        .unwrap();
    drop(database);
    let dropping = drop_waits(Box::new(target));
    other.batch_execute("COMMIT").unwrap();
    dropping.join().expect("the target went");
}
