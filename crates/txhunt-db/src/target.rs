//! The interfaces every target implements.

use crate::profile::Profile;
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
    /// The requested concurrency-control mode is not offered by the target.
    #[error("{target} has no {mode} mode")]
    Mode {
        /// The target's name.
        target: String,
        /// The mode asked for.
        mode: Mode,
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
    /// How comparisons and reports name it: its name and version, e.g. `postgres 15.19`.
    fn label(&self) -> String {
        format!("{} {}", self.name(), self.version())
    }
    /// Creates a fresh, empty, private database.
    fn create_database(&self) -> Result<Box<dyn Database>, TargetError>;
    /// How long after a statement starts waiting the DBMS runs its deadlock check for it
    /// (PostgreSQL: `deadlock_timeout`; zero where the check runs when the wait begins, as in
    /// InnoDB, or where there is none).
    fn deadlock_check_delay(&self) -> std::time::Duration {
        std::time::Duration::ZERO
    }
}
