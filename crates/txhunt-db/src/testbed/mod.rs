//! The testbed: private, throwaway DBMS servers started from installed binaries.
//!
//! A [`Server`] lives in a directory txhunt creates (data, socket, logs) under
//! [`crate::scratch::root`] (memory, where the machine has `/dev/shm`), listens on a free port
//! of 127.0.0.1, runs with fast, unsafe-for-production settings (no fsync, PostgreSQL
//! `deadlock_timeout` of a few milliseconds), and is stopped and deleted when dropped. Where
//! Debian's `eatmydata` is installed, its library is preloaded into the servers and their setup
//! commands, so that the fsyncs no setting turns off (MariaDB's DDL log and redo log at each
//! CREATE TABLE or CREATE TRIGGER) return at once: a server's data never outlives its run. When
//! txhunt runs as root, servers run as the unprivileged user `nobody`. Servers still running
//! when the process exits (or on Ctrl-C, through [`cleanup_all`]) are killed and their
//! directories deleted, so nothing is left behind; when txhunt is killed outright, each
//! server's watchdog does it, and a later start reaps whatever both left ([`guard`]).

mod binaries;
pub mod guard;
mod mariadb;
mod postgres;
pub mod versions;

use crate::settings::Settings;
use crate::target::TargetError;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::{Mutex, Once};
use std::time::{Duration, Instant};

/// The data directory's name inside a server's temp directory.
const DATA: &str = "data";

/// Which DBMS a testbed server runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServerKind {
    /// MariaDB (or MySQL) from `mariadbd` / `mysqld`.
    Mariadb,
    /// PostgreSQL from `initdb` + `postgres`.
    Postgres,
}

impl ServerKind {
    /// The DBMS's name.
    pub fn name(self) -> &'static str {
        match self {
            ServerKind::Mariadb => "mariadb",
            ServerKind::Postgres => "postgres",
        }
    }
}

/// A private server; stopped and deleted on drop.
pub struct Server {
    kind: ServerKind,
    port: u16,
    url: String,
    child: Child,
    watchdog: guard::Watchdog,
    dir: Option<tempfile::TempDir>,
    /// Held while the server lives: a later txhunt that can take it knows the owner is gone.
    _lock: std::fs::File,
}

impl Server {
    /// Starts a fresh server of `kind` from the binaries in `bin_dir` (or the installed ones)
    /// on `port` (or a free one), and waits until it accepts connections.
    pub fn start(
        kind: ServerKind,
        bin_dir: Option<&Path>,
        port: Option<u16>,
    ) -> Result<Server, TargetError> {
        Server::start_with(kind, bin_dir, port, &Settings::default())
    }

    /// [`Server::start`] with server `settings` on top of the testbed's own (a later value
    /// wins); the server refuses an unknown name or a bad value at start, and the error then
    /// quotes its log.
    pub fn start_with(
        kind: ServerKind,
        bin_dir: Option<&Path>,
        port: Option<u16>,
        settings: &Settings,
    ) -> Result<Server, TargetError> {
        guard::reap_stale();
        let dir = tempfile::Builder::new()
            .prefix(&format!("txhunt_{}_", kind.name()))
            .tempdir_in(crate::scratch::root())
            .map_err(|e| TargetError::db("creating the server's temp directory", e))?;
        let lock = guard::lock(dir.path())?;
        let owner = unprivileged_owner();
        if let Some((uid, gid)) = owner {
            chown(dir.path(), uid, gid)?;
        }
        let port = match port {
            Some(p) => p,
            None => free_port()?,
        };
        let started = match kind {
            ServerKind::Mariadb => mariadb::start(dir.path(), bin_dir, port, owner, settings),
            ServerKind::Postgres => postgres::start(dir.path(), bin_dir, port, owner, settings),
        };
        let (mut child, url) = started?;
        let watchdog = match guard::Watchdog::start(child.id(), dir.path()) {
            Ok(watchdog) => watchdog,
            Err(e) => {
                guard::signal_group(child.id(), libc::SIGKILL);
                let _ = child.wait();
                return Err(e);
            }
        };
        register(child.id(), watchdog.pid(), dir.path());
        let mut server = Server {
            kind,
            port,
            url,
            child,
            watchdog,
            dir: Some(dir),
            _lock: lock,
        };
        server.wait_ready()?;
        Ok(server)
    }

    /// The connection URL (no password: the testbed's servers have none).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The port it listens on (127.0.0.1).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The DBMS it runs.
    pub fn kind(&self) -> ServerKind {
        self.kind
    }

    /// The server process's id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Pins the server to `cpu`: every thread of every process of its group, and so what it
    /// starts later ([`crate::affinity`]); how many threads were pinned.
    pub fn pin_to_cpu(&self, cpu: usize) -> std::io::Result<usize> {
        crate::affinity::pin_process_group(self.child.id(), cpu)
    }

    /// The temp directory holding its data and logs.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_ref().map(|d| d.path())
    }

    /// Its data directory (MariaDB's `--datadir`, PostgreSQL's `-D`), inside [`Server::dir`].
    pub fn data_dir(&self) -> Option<PathBuf> {
        self.dir().map(|d| d.join(DATA))
    }

    /// Kills the server at once (SIGKILL, its whole process group), as a crash would; its
    /// directory stays until drop.
    pub fn kill(&mut self) {
        guard::signal_group(self.child.id(), libc::SIGKILL);
        let _ = self.child.wait();
    }

    fn wait_ready(&mut self) -> Result<(), TargetError> {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(TargetError::db(
                    format!("starting {}", self.kind.name()),
                    format!(
                        "the server exited ({status}); its log says:\n{}",
                        self.log_tail()
                    ),
                ));
            }
            let ready = match self.kind {
                ServerKind::Mariadb => mariadb::ready(&self.url),
                ServerKind::Postgres => postgres::ready(&self.url),
            };
            if ready {
                return Ok(());
            }
            if Instant::now() > deadline {
                return Err(TargetError::db(
                    format!("starting {}", self.kind.name()),
                    format!("not ready after 60 s; its log says:\n{}", self.log_tail()),
                ));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn log_tail(&self) -> String {
        let Some(dir) = self.dir() else {
            return String::new();
        };
        let text = std::fs::read_to_string(dir.join("server.log")).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(15)..].join("\n")
    }
}

impl Drop for Server {
    /// Asks the server to shut down fast, kills it if it has not within 10 s, deletes its files.
    fn drop(&mut self) {
        // First the watchdog, which would otherwise kill the server at once.
        self.watchdog.stop();
        let stop = match self.kind {
            ServerKind::Mariadb => libc::SIGTERM,
            ServerKind::Postgres => libc::SIGINT,
        };
        if let Ok(None) = self.child.try_wait() {
            signal(self.child.id(), stop);
            let deadline = Instant::now() + Duration::from_secs(10);
            while matches!(self.child.try_wait(), Ok(None)) && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(10));
            }
            if matches!(self.child.try_wait(), Ok(None)) {
                guard::signal_group(self.child.id(), libc::SIGKILL);
                let _ = self.child.wait();
            }
        }
        unregister(self.child.id());
        if let Some(dir) = self.dir.take() {
            let _ = dir.close();
        }
    }
}

/// A server started by this process and not yet stopped.
struct Running {
    pid: u32,
    watchdog: u32,
    dir: PathBuf,
}

/// Servers started by this process and not yet stopped.
static RUNNING: Mutex<Vec<Running>> = Mutex::new(Vec::new());
static AT_EXIT: Once = Once::new();

extern "C" fn cleanup_at_exit() {
    cleanup_all();
}

fn register(pid: u32, watchdog: u32, dir: &Path) {
    AT_EXIT.call_once(|| {
        // SAFETY: registers a plain `extern "C" fn` with no arguments, as atexit requires.
        unsafe {
            libc::atexit(cleanup_at_exit);
        }
    });
    RUNNING
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .push(Running {
            pid,
            watchdog,
            dir: dir.to_path_buf(),
        });
}

fn unregister(pid: u32) {
    RUNNING
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .retain(|r| r.pid != pid);
}

/// Kills every server this process started and deletes their directories: for Ctrl-C and
/// process exit, when destructors do not run.
pub fn cleanup_all() {
    let running = std::mem::take(&mut *RUNNING.lock().unwrap_or_else(|p| p.into_inner()));
    for Running { pid, watchdog, dir } in running {
        for pid in [watchdog, pid] {
            guard::signal_group(pid, libc::SIGKILL);
            let mut status = 0;
            // SAFETY: waits for our own child; a pid that is not ours makes waitpid fail
            // harmlessly.
            unsafe {
                libc::waitpid(pid as libc::pid_t, &mut status, 0);
            }
        }
        let _ = std::fs::remove_dir_all(dir);
    }
}

fn signal(pid: u32, sig: libc::c_int) {
    // SAFETY: kill(2) on a child process id we started.
    unsafe {
        libc::kill(pid as libc::pid_t, sig);
    }
}

/// `nobody`'s uid and gid when txhunt runs as root (servers refuse or should not run as root).
fn unprivileged_owner() -> Option<(u32, u32)> {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return None;
    }
    let name = std::ffi::CString::new("nobody").ok()?;
    // SAFETY: getpwnam with a valid C string; the result is read at once.
    let pw = unsafe { libc::getpwnam(name.as_ptr()) };
    if pw.is_null() {
        return Some((65534, 65534));
    }
    // SAFETY: pw is non-null and points to a passwd record.
    unsafe { Some(((*pw).pw_uid, (*pw).pw_gid)) }
}

fn chown(path: &Path, uid: u32, gid: u32) -> Result<(), TargetError> {
    std::os::unix::fs::chown(path, Some(uid), Some(gid)).map_err(|e| {
        TargetError::db(
            format!("handing {} to the server's user", path.display()),
            e,
        )
    })
}

fn free_port() -> Result<u16, TargetError> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0")
        .map_err(|e| TargetError::db("finding a free port", e))?;
    listener
        .local_addr()
        .map(|a| a.port())
        .map_err(|e| TargetError::db("finding a free port", e))
}

/// A command run as `owner` (when given) in `dir`, its output appended to `dir/server.log`.
fn command(program: &Path, dir: &Path, owner: Option<(u32, u32)>) -> Result<Command, TargetError> {
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("server.log"))
        .map_err(|e| TargetError::db("opening the server log", e))?;
    let log2 = log
        .try_clone()
        .map_err(|e| TargetError::db("opening the server log", e))?;
    if let Some((uid, gid)) = owner {
        chown(&dir.join("server.log"), uid, gid)?;
    }
    let mut cmd = Command::new(program);
    guard::own_group(&mut cmd);
    cmd.current_dir(dir)
        .stdin(std::process::Stdio::null())
        .stdout(log)
        .stderr(log2)
        .env_remove("PGDATA")
        .env_remove("MYSQL_HOME");
    if let Some((uid, gid)) = owner {
        cmd.uid(uid).gid(gid).env("HOME", dir);
    }
    if let Some(library) = no_sync_library() {
        let preload = match std::env::var_os("LD_PRELOAD") {
            Some(others) if !others.is_empty() => {
                let mut all = library.into_os_string();
                all.push(":");
                all.push(others);
                all
            }
            _ => library.into_os_string(),
        };
        cmd.env("LD_PRELOAD", preload);
    }
    Ok(cmd)
}

/// The library of Debian's `eatmydata` package, which makes fsync and its kin return at once
/// in the process it is preloaded into, if it is installed.
pub fn no_sync_library() -> Option<PathBuf> {
    let arch = std::env::consts::ARCH;
    [
        format!("/usr/lib/{arch}-linux-gnu/libeatmydata.so"),
        "/usr/lib/libeatmydata.so".into(),
        "/usr/lib64/libeatmydata.so".into(),
    ]
    .into_iter()
    .map(PathBuf::from)
    .find(|path| path.exists())
}

/// Runs a setup command (initdb, install-db) to its end; an error carries the log's error
/// lines and its tail.
fn run_setup(mut cmd: Command, what: &str, dir: &Path) -> Result<(), TargetError> {
    let status = cmd
        .status()
        .map_err(|e| TargetError::db(format!("running {what}"), e))?;
    if status.success() {
        return Ok(());
    }
    let log = std::fs::read_to_string(dir.join("server.log")).unwrap_or_default();
    let lines: Vec<&str> = log.lines().collect();
    let errors: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.contains("ERROR") || l.contains("FATAL") || l.contains("rror:"))
        .take(10)
        .collect();
    Err(TargetError::db(
        format!("running {what}"),
        format!(
            "{status}:\n{}\n…\n{}",
            errors.join("\n"),
            lines[lines.len().saturating_sub(15)..].join("\n")
        ),
    ))
}
