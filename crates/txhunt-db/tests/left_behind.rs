//! On an existing server, the databases a killed txhunt run left (`txhunt_<pid>_<n>` of a pid
//! that runs nothing any more) are dropped by the next run that opens the server, and only
//! those: not another live run's, nor anything not named by txhunt.

use std::sync::Arc;
use txhunt_db::mysql::MysqlTarget;
use txhunt_db::postgres::PgTarget;
use txhunt_db::testbed::{Server, ServerKind};

/// A pid no process has (one that has just exited).
fn dead_pid() -> u32 {
    let mut child = std::process::Command::new("true")
        .spawn()
        .expect("true runs");
    let pid = child.id();
    child.wait().expect("true exits");
    assert!(!std::path::Path::new(&format!("/proc/{pid}")).exists());
    pid
}

/// The databases the server is asked to hold, and after opening a target those left.
fn names(dead: u32) -> [String; 3] {
    [
        format!("txhunt_{dead}_7"),
        // Pid 1 runs as long as the machine does: a live run's.
        "txhunt_1_7".to_string(),
        format!("txhunt_{dead}_7_mine"),
    ]
}

#[test]
fn postgres_drops_only_what_dead_runs_left() {
    let server = Server::start(ServerKind::Postgres, None, None).expect("the testbed starts");
    let mut admin = postgres::Client::connect(server.url(), postgres::NoTls).expect("connects");
    let [dead, live, other] = names(dead_pid());
    for name in [&dead, &live, &other] {
        admin
            .batch_execute(&format!("CREATE DATABASE \"{name}\""))
            .expect("created");
    }
    let server = Arc::new(server);
    let target = PgTarget::new(server.url(), None, Some(server.clone())).expect("opens");
    let left: Vec<String> = admin
        .query("SELECT datname FROM pg_database ORDER BY datname", &[])
        .expect("lists")
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert!(!left.contains(&dead), "{left:?}");
    assert!(left.contains(&live) && left.contains(&other), "{left:?}");
    drop(target);
}

#[test]
fn mariadb_drops_only_what_dead_runs_left() {
    use mysql::prelude::Queryable;
    let server = Server::start(ServerKind::Mariadb, None, None).expect("the testbed starts");
    let mut admin = mysql::Conn::new(mysql::Opts::from_url(server.url()).unwrap()).unwrap();
    let [dead, live, other] = names(dead_pid());
    for name in [&dead, &live, &other] {
        admin
            .query_drop(format!("CREATE DATABASE `{name}`"))
            .expect("created");
    }
    let server = Arc::new(server);
    let target = MysqlTarget::new(server.url(), None, Some(server.clone())).expect("opens");
    let left: Vec<String> = admin.query("SHOW DATABASES").expect("lists");
    assert!(!left.contains(&dead), "{left:?}");
    assert!(left.contains(&live) && left.contains(&other), "{left:?}");
    drop(target);
}
