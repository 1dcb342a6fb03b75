//! The interfaces every target implements.

use crate::profile::Profile;
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
    /// The requested concurrency-control mode is not offered by the target.
    #[error("{target} has no {mode} mode")]
    Mode {
        /// The target's name.
        target: String,
        /// The mode asked for.
        mode: Mode,
    },
    /// A case needs more sessions than the target runs in one execution
    /// ([`Target::max_sessions`]).
    #[error("{target} runs at most {limit} sessions in one execution; the case has {asked}")]
    TooManySessions {
        /// The target's name.
        target: String,
        /// The target's limit.
        limit: usize,
        /// How many sessions the case has.
        asked: usize,
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

/// An error followed by its causes (its [`std::error::Error::source`] chain), `: `-separated,
/// e.g. `error connecting to server: Connection refused (os error 111)`; a cause the text
/// already quotes (some errors print their source themselves) is not repeated.
pub(crate) fn with_causes(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        let said = c.to_string();
        if !text.contains(&said) {
            text.push_str(": ");
            text.push_str(&said);
        }
        cause = c.source();
    }
    text
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

    /// The DBMS reported that its deadlock check for the running statement's lock wait ran
    /// and found no deadlock to break by failing it (PostgreSQL's lock-wait log message, sent
    /// to the client; see [`DeadlockCheck::reported`]). By default nothing is done with it.
    fn deadlock_checked(&self) {}
}

/// Runs `sqls` on `conn` one by one and stops at the first that fails: the outcomes of those
/// that ran ([`Connection::execute_all`]'s way without batches).
pub(crate) fn one_by_one_until_failure<C: Connection + ?Sized>(
    conn: &mut C,
    sqls: &[&str],
) -> Vec<Outcome> {
    let mut outcomes = Vec::with_capacity(sqls.len());
    for sql in sqls {
        let outcome = conn.execute(sql);
        let failed = !outcome.succeeded();
        outcomes.push(outcome);
        if failed {
            break;
        }
    }
    outcomes
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
    /// Runs `sqls` in order and stops at the first that fails: the outcomes of those that ran.
    /// Drivers that can send several statements at once (MySQL's multi-statements; on
    /// PostgreSQL a batch of reads and writes that all succeed) do so in one round trip; the
    /// others run them one by one.
    fn execute_all(&mut self, sqls: &[&str]) -> Vec<Outcome> {
        one_by_one_until_failure(self, sqls)
    }
    /// Runs setup statements `sqls`, every one whatever the others did, each as it would run
    /// alone in autocommit mode: their outcomes, one each. Drivers that can send several
    /// statements at once without changing what they do (MySQL's multi-statements; a
    /// PostgreSQL batch that all succeeds) do so; the others run them one by one.
    fn execute_setup(&mut self, sqls: &[&str]) -> Vec<Outcome> {
        sqls.iter().map(|sql| self.execute(sql)).collect()
    }
    /// Whether a transaction is open on this session, if the driver can tell.
    fn in_transaction(&mut self) -> Option<bool>;
    /// A handle that cancels this connection's running statement.
    fn interrupter(&self) -> Arc<dyn Interrupt>;
    /// The server's id for this session (connection id, backend pid), for lock-wait probes.
    fn session_id(&self) -> Option<String>;
    /// Tells the connection that the database's schema does not change any more (a stress
    /// run after its setup): it may then reuse what it learned about one statement's result
    /// columns for the statements of the same shape (PostgreSQL: their types, which take a
    /// second round trip to ask for, learned once for every session of the database). A
    /// statement other than a read, a write or transaction control makes it forget. Nothing,
    /// by default.
    fn schema_fixed(&mut self) {}
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
    /// Whether statements run in this process (an embedded engine) rather than on a server:
    /// an executor awaiting a statement's end may then spin for a moment instead of sleeping,
    /// as no server needs the CPU it would take.
    fn runs_in_process(&self) -> bool {
        false
    }
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

/// Of `names` (databases or schemas on a server), those a txhunt run that is gone left behind:
/// named `txhunt_<pid>_<n>` ([`fresh_database_name`]) for a pid that is not this process and
/// runs no process on this machine. The caller also leaves out any a session still uses (a
/// run on another machine that shares the server has its own pids).
pub(crate) fn left_behind(names: Vec<String>) -> Vec<String> {
    let ours = std::process::id();
    names
        .into_iter()
        .filter(|name| {
            let mut parts = name.strip_prefix("txhunt_").unwrap_or("").split('_');
            let (Some(pid), Some(n), None) = (parts.next(), parts.next(), parts.next()) else {
                return false;
            };
            let (Ok(pid), Ok(_)) = (pid.parse::<u32>(), n.parse::<u64>()) else {
                return false;
            };
            pid != ours && !Path::new(&format!("/proc/{pid}")).exists()
        })
        .collect()
}

/// How many sessions one execution on a server target (MySQL or PostgreSQL protocol) may open.
/// Each is a server connection (on PostgreSQL a backend process) and a client thread, the
/// oracles run several executions at once, and the testbed's servers take 500 (PostgreSQL)
/// and 1,000 (MariaDB) connections. A server configured for fewer (MySQL's default is 151,
/// PostgreSQL's 100) refuses the excess with its own error.
pub(crate) const SERVER_MAX_SESSIONS: usize = 128;

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
    /// How a `--target` value names this target where a finding is saved, for `txhunt run` to
    /// replay it: its DBMS and its settings (`turso-mvcc?mvcc_gc_threshold=1`), never an
    /// address or a password.
    fn replay_spec(&self) -> String {
        self.name()
    }
    /// How many sessions one execution may open: each is a connection and a thread of its own.
    fn max_sessions(&self) -> usize;
    /// Checks, before any connection is opened, that a case with `sessions` sessions fits
    /// [`Target::max_sessions`].
    fn check_sessions(&self, sessions: usize) -> Result<(), TargetError> {
        let limit = self.max_sessions();
        if sessions > limit {
            return Err(TargetError::TooManySessions {
                target: self.name(),
                limit,
                asked: sessions,
            });
        }
        Ok(())
    }
    /// Creates a fresh, empty, private database.
    fn create_database(&self) -> Result<Box<dyn Database>, TargetError>;
    /// When the DBMS runs its deadlock check for a statement that began to wait. By default
    /// when the wait begins (InnoDB), or never: nothing to wait for.
    fn deadlock_check(&self) -> DeadlockCheck {
        DeadlockCheck::default()
    }
    /// The server txhunt started for this target alone (the testbed's), if any: a campaign's
    /// workers each start their own and are pinned with it to one CPU ([`crate::affinity`]).
    fn private_server(&self) -> Option<&crate::testbed::Server> {
        None
    }
}

/// When a DBMS runs its deadlock check for a statement that began to wait on a lock, and
/// whether it says when it did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DeadlockCheck {
    /// How long after the wait begins the check runs (PostgreSQL: `deadlock_timeout`); zero
    /// where it runs when the wait begins, as in InnoDB, or where there is none.
    pub delay: std::time::Duration,
    /// Whether the sessions report each check as it runs ([`LockWaitHook::deadlock_checked`]),
    /// so that the executor knows when it ran instead of sleeping past the delay.
    pub reported: bool,
}

#[cfg(test)]
mod tests {
    use super::with_causes;
    use std::error::Error;
    use std::fmt;

    /// An error that names its cause only through `source`.
    #[derive(Debug)]
    struct Connecting(Quoting);

    impl fmt::Display for Connecting {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("error connecting")
        }
    }

    impl Error for Connecting {
        fn source(&self) -> Option<&(dyn Error + 'static)> {
            Some(&self.0)
        }
    }

    /// An error that also quotes its cause, as `mysql_common`'s codec error does.
    #[derive(Debug)]
    struct Quoting(std::io::Error);

    impl fmt::Display for Quoting {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "IO error: `{}'", self.0)
        }
    }

    impl Error for Quoting {
        fn source(&self) -> Option<&(dyn Error + 'static)> {
            Some(&self.0)
        }
    }

    #[test]
    fn follows_the_causes_without_repeating_them() {
        let e = Connecting(Quoting(std::io::ErrorKind::BrokenPipe.into()));
        assert_eq!(with_causes(&e), "error connecting: IO error: `broken pipe'");
    }
}
