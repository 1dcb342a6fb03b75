//! Starting a private MariaDB (or MySQL) server.

use super::binaries::find;
use super::{command, run_setup};
use crate::settings::Settings;
use crate::target::TargetError;
use std::path::Path;
use std::process::Child;

/// Initializes a data directory in `dir` and starts `mariadbd` on `port`, with `settings` as
/// `--NAME=VALUE` options after the testbed's own.
pub(super) fn start(
    dir: &Path,
    bin_dir: Option<&Path>,
    port: u16,
    owner: Option<(u32, u32)>,
    settings: &Settings,
) -> Result<(Child, String), TargetError> {
    let install = find(&["mariadb-install-db", "mysql_install_db"], bin_dir, &[])?;
    let server = find(&["mariadbd", "mysqld"], bin_dir, &["/usr/sbin".into()])?;
    let data = dir.join(super::DATA);
    // Its own tmpdir: concurrent bootstraps sharing /tmp were seen to fail here.
    let tmp = dir.join("tmp");
    std::fs::create_dir(&tmp).map_err(|e| TargetError::db("creating the server's tmpdir", e))?;
    if let Some((uid, gid)) = owner {
        super::chown(&tmp, uid, gid)?;
    }
    let mut init = command(&install, dir, owner)?;
    init.arg("--no-defaults")
        .arg(format!("--datadir={}", data.display()))
        .arg(format!("--tmpdir={}", tmp.display()))
        .arg("--auth-root-authentication-method=normal")
        .arg("--skip-test-db");
    if let Some(base) = bin_dir.and_then(Path::parent) {
        init.arg(format!("--basedir={}", base.display()));
    }
    run_setup(init, "mariadb-install-db", dir)?;
    let mut cmd = command(&server, dir, owner)?;
    cmd.arg("--no-defaults")
        .arg(format!("--datadir={}", data.display()))
        .arg(format!("--tmpdir={}", tmp.display()))
        .arg(format!("--port={port}"))
        .arg("--bind-address=127.0.0.1")
        .arg(format!("--socket={}", dir.join("sock").display()))
        .arg(format!("--pid-file={}", dir.join("pid").display()))
        .arg(format!("--log-error={}", dir.join("server.log").display()))
        .args([
            "--skip-name-resolve",
            "--skip-log-bin",
            "--max-connections=1000",
            "--innodb-buffer-pool-size=64M",
            "--innodb-flush-log-at-trx-commit=0",
            "--innodb-doublewrite=0",
            // No fsync of table definition and trigger files: CREATE TRIGGER costs a third less.
            "--loose-sync-frm=OFF",
            "--performance-schema=OFF",
        ]);
    if let Some(base) = bin_dir.and_then(Path::parent) {
        cmd.arg(format!("--basedir={}", base.display()));
    }
    cmd.args(
        settings
            .iter()
            .map(|(name, value)| format!("--{name}={value}")),
    );
    let child = cmd
        .spawn()
        .map_err(|e| TargetError::db(format!("starting {}", server.display()), e))?;
    Ok((child, format!("mysql://root@127.0.0.1:{port}")))
}

/// Whether the server at `url` accepts a connection.
pub(super) fn ready(url: &str) -> bool {
    mysql::Opts::from_url(url)
        .ok()
        .is_some_and(|opts| mysql::Conn::new(opts).is_ok())
}
