//! Databases (MariaDB) and schemas (PostgreSQL) are dropped by a thread of the target's, off
//! the executions' time, and the target waits for every drop it handed over before it goes
//! (its server must outlive them): here a drop is held up by another client's lock, and the
//! target's drop returns only once that client lets go. The same thread creates the next
//! execution's database ahead: the next execution gets it, and none is left behind.

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

/// A private MariaDB server, a target on it, one of its databases with a table `t`, another
/// client's connection to the server, and the database's name.
fn mariadb_database_with_a_table() -> (
    Arc<Server>,
    MysqlTarget,
    Box<dyn txhunt_db::Database>,
    mysql::Conn,
    String,
) {
    use mysql::prelude::Queryable;
    let server = Arc::new(Server::start(ServerKind::Mariadb, None, None).expect("starts"));
    let target = MysqlTarget::new(server.url(), None, Some(server.clone())).expect("opens");
    let database = database_with_a_table(&target);
    let mut other = mysql::Conn::new(mysql::Opts::from_url(server.url()).unwrap()).unwrap();
    let [name]: [String; 1] = (other.query(
        "SELECT table_schema FROM information_schema.tables WHERE table_schema LIKE 'txhunt\\_%'",
    ))
    .unwrap()
    .try_into()
    .expect("one database with a table");
    (server, target, database, other, name)
}

#[test]
fn a_mariadb_target_waits_for_the_databases_it_handed_to_its_housekeeper() {
    use mysql::prelude::Queryable;
    let (_server, target, database, mut other, name) = mariadb_database_with_a_table();
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

/// MariaDB now and then leaves a table's trigger backup `t.TRG-` in a database directory
/// (`corpus/mariadb/MARIADB-trigger-backup-left.md`), and `DROP DATABASE` then fails: here the
/// file is put there as MariaDB leaves it; txhunt, owning the server, removes it and drops the
/// database.
#[test]
fn a_mariadb_database_is_dropped_despite_a_trigger_backup_left_in_it() {
    use mysql::prelude::Queryable;
    let (server, target, database, mut other, name) = mariadb_database_with_a_table();
    let dir = server.data_dir().expect("a testbed's data").join(&name);
    let backup = dir.join("t.TRG-");
    std::fs::write(&backup, "TYPE=TRIGGERS\n").expect("written");
    let refused = other
        .query_drop(format!("DROP DATABASE `{name}`"))
        .expect_err("the backup keeps the database");
    assert!(refused.to_string().contains("1010"), "{refused}");
    drop(database);
    drop(target);
    assert!(!backup.exists(), "the backup is still there");
    let left: Vec<String> = other.query("SHOW DATABASES LIKE 'txhunt\\_%'").unwrap();
    assert!(left.is_empty(), "left behind: {left:?}");
}

#[test]
fn a_postgres_target_waits_for_the_schemas_it_handed_to_its_housekeeper() {
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
            "SELECT table_schema::text FROM information_schema.tables WHERE table_schema LIKE 'txhunt\\_%'",
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

/// Waits (up to 10 s) until the database (schema) `target` made ahead shows among those `list`
/// gives for `made`, then checks that the next execution's table lands in it (the
/// tables' databases are those `list` gives for `used`): that execution's database.
fn the_one_made_ahead_is_used(
    target: &dyn Target,
    list: impl Fn(&str) -> Vec<String>,
    made: &str,
    used: &str,
) -> Box<dyn txhunt_db::Database> {
    let mut ahead = list(made);
    for _ in 0..1000 {
        if ahead.len() == 1 {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
        ahead = list(made);
    }
    assert_eq!(ahead.len(), 1, "no database made ahead: {ahead:?}");
    let database = database_with_a_table(target);
    assert_eq!(
        list(used),
        ahead,
        "the execution created a database of its own"
    );
    database
}

#[test]
fn the_next_execution_gets_the_mariadb_database_made_ahead_and_none_is_left() {
    use mysql::prelude::Queryable;
    let server = Arc::new(Server::start(ServerKind::Mariadb, None, None).expect("starts"));
    let target = MysqlTarget::new(server.url(), None, Some(server.clone())).expect("opens");
    let other = std::sync::Mutex::new(
        mysql::Conn::new(mysql::Opts::from_url(server.url()).unwrap()).unwrap(),
    );
    let list = |sql: &str| -> Vec<String> { other.lock().unwrap().query(sql).unwrap() };
    let database = the_one_made_ahead_is_used(
        &target,
        list,
        "SHOW DATABASES LIKE 'txhunt\\_%'",
        "SELECT table_schema FROM information_schema.tables WHERE table_schema LIKE 'txhunt\\_%'",
    );
    drop(database);
    drop(target);
    let left = list("SHOW DATABASES LIKE 'txhunt\\_%'");
    assert!(left.is_empty(), "left behind: {left:?}");
}

#[test]
fn the_next_execution_gets_the_postgres_schema_made_ahead_and_none_is_left() {
    let server = Arc::new(Server::start(ServerKind::Postgres, None, None).expect("starts"));
    let target = PgTarget::new(server.url(), None, Some(server.clone())).expect("opens");
    let mut admin = postgres::Client::connect(server.url(), postgres::NoTls).expect("connects");
    let database: String = admin
        .query_one(
            "SELECT datname::text FROM pg_database WHERE datname LIKE 'txhunt\\_%'",
            &[],
        )
        .unwrap()
        .get(0);
    let mut config: postgres::Config = server.url().parse().unwrap();
    config.dbname(&database);
    let other = std::sync::Mutex::new(config.connect(postgres::NoTls).expect("connects"));
    let list = |sql: &str| -> Vec<String> {
        let rows = other.lock().unwrap().query(sql, &[]).unwrap();
        rows.iter().map(|r| r.get(0)).collect()
    };
    let used_database = the_one_made_ahead_is_used(
        &target,
        list,
        "SELECT nspname::text FROM pg_namespace WHERE nspname LIKE 'txhunt\\_%'",
        "SELECT table_schema::text FROM information_schema.tables WHERE table_schema LIKE 'txhunt\\_%'",
    );
    drop(used_database);
    drop(target);
    // The target's own database went with it: its schemas with it.
    let left: Vec<String> = (admin.query(
        "SELECT datname::text FROM pg_database WHERE datname LIKE 'txhunt\\_%'",
        &[],
    ))
    .unwrap()
    .iter()
    .map(|r| r.get(0))
    .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}
