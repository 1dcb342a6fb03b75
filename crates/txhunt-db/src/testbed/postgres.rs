//! Starting a private PostgreSQL server (any major version 10–18).
//!
//! `deadlock_timeout` is 1 ms (PostgreSQL's default is 1 s), so deadlocks resolve fast; after
//! each block point the executor waits until the waiting session is told that its deadlock
//! check ran (see `Target::deadlock_check`), so that the victim is always the transaction
//! that closed the cycle.

use super::binaries::{debian_postgres_dirs, find};
use super::{command, run_setup};
use crate::settings::Settings;
use crate::target::TargetError;
use std::path::Path;
use std::process::Child;

/// Initializes a cluster in `dir` and starts `postgres` on `port`, with `settings` as
/// `-c NAME=VALUE` after the testbed's own.
pub(super) fn start(
    dir: &Path,
    bin_dir: Option<&Path>,
    port: u16,
    owner: Option<(u32, u32)>,
    settings: &Settings,
) -> Result<(Child, String), TargetError> {
    let initdb = find(&["initdb"], bin_dir, &debian_postgres_dirs())?;
    let initdb = std::fs::canonicalize(&initdb).unwrap_or(initdb);
    let server = initdb.with_file_name("postgres");
    let data = dir.join(super::DATA);
    let mut init = command(&initdb, dir, owner)?;
    init.arg("-D").arg(&data).args([
        "-U",
        "postgres",
        "-A",
        "trust",
        "--no-sync",
        "-E",
        "UTF8",
        "--no-locale",
    ]);
    run_setup(init, "initdb", dir)?;
    let mut cmd = command(&server, dir, owner)?;
    cmd.arg("-D")
        .arg(&data)
        .arg("-p")
        .arg(port.to_string())
        .arg("-k")
        .arg(dir)
        .args([
            "-c",
            "listen_addresses=127.0.0.1",
            "-c",
            "fsync=off",
            "-c",
            "synchronous_commit=off",
            "-c",
            "full_page_writes=off",
            "-c",
            "deadlock_timeout=1ms",
            "-c",
            "max_connections=500",
            "-c",
            "shared_buffers=32MB",
            // Dynamic shared memory as files in the data directory, not POSIX segments in
            // /dev/shm: a server that is killed (a crash test, a killed run) leaves its
            // segments behind, and those outside its directory were never deleted.
            "-c",
            "dynamic_shared_memory_type=mmap",
        ]);
    for (name, value) in settings.iter() {
        cmd.arg("-c").arg(format!("{name}={value}"));
    }
    let child = cmd
        .spawn()
        .map_err(|e| TargetError::db(format!("starting {}", server.display()), e))?;
    Ok((
        child,
        format!("postgres://postgres@127.0.0.1:{port}/postgres"),
    ))
}

/// Whether the server at `url` accepts a connection.
pub(super) fn ready(url: &str) -> bool {
    url.parse::<postgres::Config>()
        .ok()
        .is_some_and(|c| c.connect(postgres::NoTls).is_ok())
}
