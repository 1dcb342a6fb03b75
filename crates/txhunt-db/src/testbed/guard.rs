//! What keeps a private server from outliving the txhunt that started it, even one killed
//! with SIGKILL, whose destructors and exit handlers never run.
//!
//! - **A process group of its own** for every server (and setup command): Ctrl-C in a terminal
//!   signals the terminal's foreground group, so it reaches txhunt, which stops its work and
//!   its servers in order, and never a server under a running case.
//! - **A watchdog**: `/bin/sh` reading a pipe whose write end only txhunt holds. When txhunt
//!   dies the pipe closes, the watchdog's `read` ends, and it kills the server's process
//!   group and deletes the server's directory. A server stopped normally has its watchdog
//!   killed first.
//! - **A lock**: txhunt holds an exclusive `flock` on `DIR/owner.lock` while the server
//!   lives, and `DIR/owner` names the server's pid. A later txhunt ([`reap_stale`]) deletes
//!   every `txhunt_mariadb_*` / `txhunt_postgres_*` directory of [`crate::scratch::root`]
//!   (and of the temp dir) whose lock it
//!   can take (its owner is gone: the watchdog died too, or the machine stopped), after
//!   killing the server recorded there — only when that process's command line names the
//!   directory, so a reused pid is never hit.

use super::signal;
use crate::target::TargetError;
use std::fs::File;
use std::io::Write;
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};

/// The lock file txhunt holds while a server lives.
const LOCK: &str = "owner.lock";
/// The file that names the server's pid.
const OWNER: &str = "owner";
/// The prefixes of the directories the testbed creates.
const PREFIXES: [&str; 2] = ["txhunt_mariadb_", "txhunt_postgres_"];

/// The watchdog's script: wait for the pipe to close, kill the group `$1`, wait (at most 5 s)
/// for it to be gone, delete `$2`.
const WATCHDOG: &str = r#"while read -r _; do :; done
kill -9 -$1 2>/dev/null
i=0
while kill -0 -$1 2>/dev/null && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
rm -rf -- "$2""#;

/// Puts `cmd` in a process group of its own.
pub(super) fn own_group(cmd: &mut Command) {
    cmd.process_group(0);
}

/// Takes the lock of a new server directory `dir`; held as long as the returned file is. The
/// lock file appears under its name already locked (locked under another name, then renamed),
/// so no reaper ever finds it unlocked.
pub(super) fn lock(dir: &Path) -> Result<File, TargetError> {
    let fail = |e| TargetError::db("locking the server's directory", e);
    let taking = dir.join(format!("{LOCK}.new"));
    let file = File::create(&taking).map_err(fail)?;
    if !try_lock(&file) {
        return Err(fail(std::io::Error::last_os_error()));
    }
    std::fs::rename(&taking, dir.join(LOCK)).map_err(fail)?;
    Ok(file)
}

/// What guards one running server: its watchdog, killed when the server is stopped normally.
pub(super) struct Watchdog {
    child: Child,
    /// The write end of the watchdog's pipe: closing it (txhunt's death) wakes the watchdog.
    _pipe: ChildStdin,
}

impl Watchdog {
    /// Starts the watchdog of the server `server_pid` (a process group leader) living in
    /// `dir`, and records the server's pid there for [`reap_stale`].
    pub(super) fn start(server_pid: u32, dir: &Path) -> Result<Watchdog, TargetError> {
        let mut owner = File::create(dir.join(OWNER))
            .map_err(|e| TargetError::db("recording the server's pid", e))?;
        writeln!(owner, "{server_pid}")
            .map_err(|e| TargetError::db("recording the server's pid", e))?;
        let mut cmd = Command::new("/bin/sh");
        cmd.arg("-c")
            .arg(WATCHDOG)
            .arg("txhunt-watchdog")
            .arg(server_pid.to_string())
            .arg(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        own_group(&mut cmd);
        let mut child = cmd
            .spawn()
            .map_err(|e| TargetError::db("starting the server's watchdog (/bin/sh)", e))?;
        let pipe = child.stdin.take().ok_or_else(|| {
            TargetError::db("starting the server's watchdog", "it has no stdin pipe")
        })?;
        Ok(Watchdog { child, _pipe: pipe })
    }

    /// The watchdog's pid.
    pub(super) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Kills the watchdog (before its server is stopped normally).
    pub(super) fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Deletes the server directories of the temp dir whose owner is gone, killing the servers
/// still running in them; once per process (txhunt's start and the first server it starts
/// both ask; the second finds the work done).
pub fn reap_stale() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(reap);
}

fn reap() {
    let mut roots = vec![crate::scratch::root(), std::env::temp_dir()];
    roots.dedup();
    for entry in roots.iter().flat_map(std::fs::read_dir).flatten().flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if !PREFIXES.iter().any(|p| name.starts_with(p)) {
            continue;
        }
        let dir = entry.path();
        if is_stale(&dir) {
            if let Some(pid) = recorded_server(&dir) {
                signal(pid, libc::SIGKILL);
                // The group: a PostgreSQL server's backends too.
                signal_group(pid, libc::SIGKILL);
            }
            if std::fs::remove_dir_all(&dir).is_ok() {
                tracing::info!("deleted the stale server directory {}", dir.display());
            }
        }
    }
}

/// Whether `dir`'s owner is gone: it has a lock file and its lock can be taken. A directory
/// without one is left alone: another txhunt may be creating it this very moment, or it may
/// belong to a txhunt of a version without locks, whose server still runs.
fn is_stale(dir: &Path) -> bool {
    File::open(dir.join(LOCK)).is_ok_and(|file| try_lock(&file))
}

/// The server pid recorded in `dir`, if that process still runs with `dir` on its command
/// line (a pid reused by another process is not returned).
fn recorded_server(dir: &Path) -> Option<u32> {
    let pid: u32 = std::fs::read_to_string(dir.join(OWNER))
        .ok()?
        .trim()
        .parse()
        .ok()?;
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
    let dir = dir.to_str()?.as_bytes();
    cmdline.windows(dir.len()).any(|w| w == dir).then_some(pid)
}

/// Takes an exclusive lock on `file` without waiting.
fn try_lock(file: &File) -> bool {
    // SAFETY: flock on a descriptor this function's caller owns.
    unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) == 0 }
}

/// Sends `sig` to the process group led by `pid`.
pub(super) fn signal_group(pid: u32, sig: libc::c_int) {
    // SAFETY: kill(2) with a negative pid signals that process group.
    unsafe {
        libc::kill(-(pid as libc::pid_t), sig);
    }
}
