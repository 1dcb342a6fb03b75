//! The interfaces every target implements.

use crate::mysql::MysqlTarget;
use crate::postgres::PgTarget;
use crate::profile::Profile;
use crate::sqlite::SqliteTarget;
use crate::testbed::{Server, ServerKind};
use crate::turso::TursoTarget;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use txhunt_model::{DbState, Isolation, Mode, Outcome};

/// A target could not be reached, set up, or read.
#[derive(Debug, thiserror::Error)]
pub enum TargetError {
    /// The target specification (`--target`) is malformed or names an unknown DBMS.
    #[error("{0}")]
    Spec(String),
    /// The DBMS refused or failed an operation txhunt needs (connect, create, dump).
    #[error("{context}: {message}")]
    Db {
        /// What txhunt was doing.
        context: String,
        /// What the DBMS or the system said.
        message: String,
    },
    /// The requested isolation level is not offered by the target.
    #[error("{target} does not support isolation level {level}; it supports: {supported}")]
    Isolation {
        /// The target's name.
        target: String,
        /// The level asked for.
        level: Isolation,
        /// The levels it has.
        supported: String,
    },
}

impl TargetError {
    /// A [`TargetError::Db`] from any displayable cause.
    pub fn db(context: impl Into<String>, cause: impl std::fmt::Display) -> Self {
        TargetError::Db {
            context: context.into(),
            message: cause.to_string(),
        }
    }
}

/// How each session of an execution is configured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionConfig {
    /// The isolation level every session runs at.
    pub isolation: Isolation,
    /// The concurrency-control mode, where the target has several.
    pub mode: Option<Mode>,
}

/// Called by a driver, on the session's own thread, each time the DBMS makes the running
/// statement wait for a lock.
pub trait LockWaitHook: Send + Sync {
    /// Blocks until the executor lets the statement retry (returns `true`) or tells it to give
    /// up waiting (returns `false`, and the statement fails with the DBMS's busy error).
    fn waiting(&self) -> bool;
}

/// Cancels the statement running on a connection, from another thread.
pub trait Interrupt: Send + Sync {
    /// Asks the DBMS to stop the running statement; it then fails (or was already done).
    fn interrupt(&self);
}

/// One client session, used by one thread at a time.
pub trait Connection: Send {
    /// Runs one statement to its end and says what it did; never panics on DBMS errors.
    fn execute(&mut self, sql: &str) -> Outcome;
    /// Whether a transaction is open on this session, if the driver can tell.
    fn in_transaction(&mut self) -> Option<bool>;
    /// A handle that cancels this connection's running statement.
    fn interrupter(&self) -> Arc<dyn Interrupt>;
    /// The server's id for this session (connection id, backend pid), for lock-wait probes.
    fn session_id(&self) -> Option<String>;
}

/// Asks the DBMS, through a monitor session of its own, whether a session waits on a lock.
pub trait LockProbe: Send + Sync {
    /// Whether the session with server id `session_id` waits on a lock right now.
    fn is_waiting(&self, session_id: &str) -> bool;
}

/// A private database txhunt created for one execution; dropped (and deleted) after it.
pub trait Database: Send + Sync {
    /// Opens a session configured by `config`. When `hook` is given, the driver reports every
    /// lock wait through it (see [`Profile::reports_lock_waits`]).
    fn connect(
        &self,
        config: SessionConfig,
        hook: Option<Arc<dyn LockWaitHook>>,
    ) -> Result<Box<dyn Connection>, TargetError>;
    /// Reads the committed contents of every table through a separate session.
    fn final_state(&self) -> Result<DbState, TargetError>;
    /// The lock-wait probe of this database's server, if the target has one.
    fn lock_probe(&self) -> Option<Arc<dyn LockProbe>>;
}

/// A fresh name for a database txhunt creates: `txhunt_<pid>_<n>`.
pub fn fresh_database_name() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!(
        "txhunt_{}_{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// One DBMS endpoint.
pub trait Target: Send + Sync {
    /// A short name for reports, e.g. `sqlite`.
    fn name(&self) -> String;
    /// The engine's version as it reports it, e.g. `3.50.4` or `15.19`.
    fn version(&self) -> String;
    /// What txhunt knows about this DBMS.
    fn profile(&self) -> &dyn Profile;
    /// Creates a fresh, empty, private database.
    fn create_database(&self) -> Result<Box<dyn Database>, TargetError>;
    /// How long after a statement starts waiting the DBMS runs its deadlock check for it
    /// (PostgreSQL: `deadlock_timeout`; zero where the check runs when the wait begins, as in
    /// InnoDB, or where there is none).
    fn deadlock_check_delay(&self) -> std::time::Duration {
        std::time::Duration::ZERO
    }
}

/// Opens the target a `--target` value names:
///
/// * `sqlite` or `sqlite:DIR` — embedded SQLite; DIR is where txhunt creates (and later
///   deletes) its database files, the system's temp directory by default;
/// * `turso[:DIR]`, `turso-mvcc[:DIR]` — embedded Turso, normal or MVCC mode, likewise;
/// * `mariadb`, `postgres` — a private server the testbed starts (from `bin_dir` if given) and
///   stops when the target is dropped;
/// * `mysql://…` (MariaDB, MySQL or TiDB, told apart by the server's version), `mariadb://…`,
///   `tidb://…`, `postgres://…` / `postgresql://…` (PostgreSQL or CockroachDB),
///   `cockroach://…` — an existing server, where txhunt only uses databases it creates.
pub fn open_target(spec: &str, bin_dir: Option<&Path>) -> Result<Box<dyn Target>, TargetError> {
    use crate::profile::{cockroach, mariadb, postgres as pg, tidb};
    let (scheme, rest) = spec.split_once("://").unwrap_or(("", spec));
    let as_url = |new_scheme: &str| format!("{new_scheme}://{rest}");
    match (scheme, spec) {
        ("", "sqlite") => Ok(Box::new(SqliteTarget::new(None)?)),
        ("", s) if s.starts_with("sqlite:") => Ok(Box::new(SqliteTarget::new(Some(
            s["sqlite:".len()..].into(),
        ))?)),
        ("", "turso" | "turso-mvcc") => Ok(Box::new(TursoTarget::new(None, spec == "turso-mvcc")?)),
        ("", s) if s.starts_with("turso:") || s.starts_with("turso-mvcc:") => {
            let (mode, dir) = s.split_once(':').expect("prefix checked");
            Ok(Box::new(TursoTarget::new(Some(dir.into()), mode == "turso-mvcc")?))
        }
        ("", "mariadb") => {
            let server = Server::start(ServerKind::Mariadb, bin_dir, None)?;
            let url = server.url().to_string();
            Ok(Box::new(MysqlTarget::new(&url, Some(&mariadb::MariadbProfile), Some(Arc::new(server)))?))
        }
        ("", "postgres") => {
            let server = Server::start(ServerKind::Postgres, bin_dir, None)?;
            let url = server.url().to_string();
            Ok(Box::new(PgTarget::new(&url, Some(&pg::PostgresProfile), Some(Arc::new(server)))?))
        }
        ("mysql", _) => Ok(Box::new(MysqlTarget::new(spec, None, None)?)),
        ("mariadb", _) => Ok(Box::new(MysqlTarget::new(&as_url("mysql"), Some(&mariadb::MariadbProfile), None)?)),
        ("tidb", _) => Ok(Box::new(MysqlTarget::new(&as_url("mysql"), Some(&tidb::TidbProfile), None)?)),
        ("postgres" | "postgresql", _) => Ok(Box::new(PgTarget::new(spec, None, None)?)),
        ("cockroach", _) => Ok(Box::new(PgTarget::new(&as_url("postgres"), Some(&cockroach::CockroachProfile), None)?)),
        _ => Err(TargetError::Spec(format!(
            "unknown target '{}'; accepted: sqlite, sqlite:DIR, turso[:DIR], turso-mvcc[:DIR], mariadb, postgres, mysql://…, mariadb://…, tidb://…, postgres://…, cockroach://…",
            redact(spec)
        ))),
    }
}

/// `spec` with any password replaced by `***`, fit to print.
pub fn redact(spec: &str) -> String {
    let Some((scheme, rest)) = spec.split_once("://") else {
        return spec.to_string();
    };
    let (authority, tail) = rest
        .split_once('/')
        .map_or((rest, None), |(a, t)| (a, Some(t)));
    let authority = match authority.rsplit_once('@') {
        Some((userinfo, host)) => match userinfo.split_once(':') {
            Some((user, _password)) => format!("{user}:***@{host}"),
            None => format!("{userinfo}@{host}"),
        },
        None => authority.to_string(),
    };
    match tail {
        Some(t) => format!("{scheme}://{authority}/{t}"),
        None => format!("{scheme}://{authority}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redacts_passwords() {
        assert_eq!(
            redact("mysql://root:secret@db:3306/x"),
            "mysql://root:***@db:3306/x"
        );
        assert_eq!(redact("postgres://u@h/db"), "postgres://u@h/db");
        assert_eq!(redact("sqlite"), "sqlite");
    }

    #[test]
    fn unknown_targets_are_named_without_their_password() {
        let err = open_target("oracle://sys:hunter2@h", None)
            .err()
            .unwrap()
            .to_string();
        assert!(
            err.contains("oracle://sys:***@h") && !err.contains("hunter2"),
            "{err}"
        );
    }
}
