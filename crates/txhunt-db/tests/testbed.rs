//! The testbed starts private servers quickly, with fsync turned into a no-op, keeps what
//! they make in their own directory, and leaves nothing behind when they stop.

use std::path::PathBuf;
use txhunt_db::testbed::{Server, ServerKind};

fn alive(pid: u32) -> bool {
    // SAFETY: signal 0 only checks that the process exists.
    unsafe { libc::kill(pid as libc::pid_t, 0) == 0 }
}

fn start_and_stop(kind: ServerKind) {
    let server = Server::start(kind, None, None)
        .unwrap_or_else(|e| panic!("the {} testbed server must start: {e}", kind.name()));
    let pid = server.pid();
    let dir: PathBuf = server.dir().expect("has a directory").to_path_buf();
    assert!(alive(pid) && dir.exists());
    // Its fsyncs return at once (scripts/test installs Debian's eatmydata).
    let library = txhunt_db::testbed::no_sync_library()
        .expect("eatmydata is installed (Debian package eatmydata)");
    let maps = std::fs::read_to_string(format!("/proc/{pid}/maps")).expect("the server's maps");
    assert!(
        maps.contains(
            library
                .file_name()
                .and_then(|n| n.to_str())
                .expect("a name")
        ),
        "{} is preloaded into the {} server",
        library.display(),
        kind.name()
    );
    // Nothing of it lives outside its directory: PostgreSQL's dynamic shared memory
    // segments, POSIX ones in /dev/shm by default, are left there when a server is killed.
    let outside = (maps.lines()).find(|l| l.contains("/dev/shm/PostgreSQL."));
    assert_eq!(outside, None, "a segment outside {}", dir.display());
    assert!(server.url().starts_with(match kind {
        ServerKind::Mariadb => "mysql://root@127.0.0.1:",
        ServerKind::Postgres => "postgres://postgres@127.0.0.1:",
    }));
    let target = txhunt_db::open_target(server.url(), None).expect("reachable");
    assert_eq!(target.name(), kind.name());
    drop(target);
    drop(server);
    assert!(!dir.exists(), "{} was deleted", dir.display());
    assert!(!alive(pid), "server process {pid} stopped");
}

#[test]
fn mariadb_starts_and_stops_without_leftovers() {
    start_and_stop(ServerKind::Mariadb);
}

#[test]
fn postgres_starts_and_stops_without_leftovers() {
    start_and_stop(ServerKind::Postgres);
}

#[test]
fn a_missing_binary_directory_is_a_clear_error() {
    let err = Server::start(
        ServerKind::Postgres,
        Some("/nonexistent/bin".as_ref()),
        None,
    )
    .err()
    .expect("fails")
    .to_string();
    assert!(
        err.contains("cannot find initdb in /nonexistent/bin") && err.contains("--bin-dir"),
        "{err}"
    );
}
