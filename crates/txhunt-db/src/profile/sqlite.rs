//! SQLite: levels, error classes and abort rules.
//!
//! * Isolation: `serializable` (SQLite's only level between connections) and `read-uncommitted`
//!   (shared cache plus `PRAGMA read_uncommitted`, the one way SQLite offers dirty reads).
//! * Lock waits: SQLite calls the connection's busy handler whenever a statement would wait for
//!   a lock; txhunt's handler reports the wait at once, so blocking is known, never guessed.
//! * Deadlocks: SQLite has no deadlock detector. It only waits (calls the busy handler) when the
//!   waiting connection holds no lock; when waiting could deadlock — a connection that already
//!   read in its transaction wants to write while another writes — it returns `SQLITE_BUSY` at
//!   once instead (the `sqlite3_busy_handler` documentation). txhunt classifies such an immediate
//!   `SQLITE_BUSY` as `deadlock` and, as paper 001 §5.3.2 prescribes for SQLite, sends ROLLBACK
//!   to end the transaction. The paper's own rule ("a second transaction blocks while one is
//!   blocked") guessed deadlocks from timeouts; with exact wait reports a waiting SQLite session
//!   holds no lock and so can never be part of a cycle, which makes that guess unnecessary.
//! * `SQLITE_BUSY_SNAPSHOT`: a WAL transaction whose snapshot is stale may not write; it is a
//!   `serialization` failure and the transaction must be rolled back.
//! * `SQLITE_LOCKED` (shared-cache table locks, read-uncommitted): SQLite never waits for these,
//!   so the lock is simply not granted: `lock-timeout`, statement-level.

use super::claim::{Claim, SQLITE_STALE_SNAPSHOT};
use super::guarantee::{self, Guarantee};
use super::semantics::{self, Semantics};
use super::{ErrorEffect, Profile};
use rusqlite::ffi;
use txhunt_model::{DbError, ErrorClass, Isolation, SqlFamily};

/// The SQLite profile.
#[derive(Debug, Default, Clone, Copy)]
pub struct SqliteProfile;

/// Where in a statement's life an error came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// While compiling it (`sqlite3_prepare`): the statement was rejected.
    Prepare,
    /// While running it (`sqlite3_step`).
    Step {
        /// Whether the busy handler was called during the statement (it waited on a lock).
        waited: bool,
    },
}

impl SqliteProfile {
    /// Sorts a SQLite error, by its extended result code, into an [`ErrorClass`].
    pub fn classify(extended_code: i32, phase: Phase) -> ErrorClass {
        let primary = extended_code & 0xff;
        match (primary, phase) {
            (ffi::SQLITE_ERROR, Phase::Prepare) => ErrorClass::Syntax,
            _ if extended_code == ffi::SQLITE_BUSY_SNAPSHOT => ErrorClass::Serialization,
            (ffi::SQLITE_BUSY, Phase::Step { waited: false }) => ErrorClass::Deadlock,
            (ffi::SQLITE_BUSY, _) | (ffi::SQLITE_LOCKED, _) => ErrorClass::LockTimeout,
            (ffi::SQLITE_CONSTRAINT, _) => ErrorClass::Constraint,
            (ffi::SQLITE_INTERNAL | ffi::SQLITE_CORRUPT | ffi::SQLITE_MISUSE, _) => {
                ErrorClass::Internal
            }
            (ffi::SQLITE_CANTOPEN | ffi::SQLITE_IOERR, _) => ErrorClass::Connection,
            _ => ErrorClass::Other,
        }
    }
}

impl Profile for SqliteProfile {
    fn name(&self) -> &'static str {
        "sqlite"
    }

    fn family(&self) -> SqlFamily {
        SqlFamily::Sqlite
    }

    fn semantics(&self) -> &'static Semantics {
        &semantics::SQLITE
    }

    /// WAL readers' stale-snapshot check (the only check at SERIALIZABLE; shared-cache
    /// READ UNCOMMITTED locks tables instead).
    fn claims(&self, isolation: Isolation) -> &'static [Claim] {
        match isolation {
            Isolation::Serializable => &[SQLITE_STALE_SNAPSHOT],
            _ => &[],
        }
    }

    fn reported_as(&self) -> &'static [&'static str] {
        &["sqlite"]
    }

    fn guarantee(&self, isolation: Isolation) -> &'static Guarantee {
        match isolation {
            Isolation::ReadUncommitted => &guarantee::SQLITE_READ_UNCOMMITTED,
            _ => &guarantee::PL_3,
        }
    }

    fn isolation_levels(&self) -> &'static [Isolation] {
        &[Isolation::ReadUncommitted, Isolation::Serializable]
    }

    fn default_isolation(&self) -> Isolation {
        Isolation::Serializable
    }

    fn error_effect(&self, error: &DbError) -> ErrorEffect {
        match error.class {
            ErrorClass::Deadlock | ErrorClass::Serialization => ErrorEffect::NeedsRollback,
            _ => ErrorEffect::Statement,
        }
    }

    /// SAVEPOINT outside a transaction starts one, like BEGIN DEFERRED.
    fn savepoint_opens_transaction(&self) -> bool {
        true
    }

    fn reports_lock_waits(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn busy_is_a_deadlock_only_when_sqlite_refused_to_wait() {
        let step = |waited| Phase::Step { waited };
        assert_eq!(
            SqliteProfile::classify(ffi::SQLITE_BUSY, step(false)),
            ErrorClass::Deadlock
        );
        assert_eq!(
            SqliteProfile::classify(ffi::SQLITE_BUSY, step(true)),
            ErrorClass::LockTimeout
        );
        assert_eq!(
            SqliteProfile::classify(ffi::SQLITE_BUSY_SNAPSHOT, step(true)),
            ErrorClass::Serialization
        );
        assert_eq!(
            SqliteProfile::classify(ffi::SQLITE_LOCKED_SHAREDCACHE, step(false)),
            ErrorClass::LockTimeout
        );
        assert_eq!(
            SqliteProfile::classify(ffi::SQLITE_CONSTRAINT_PRIMARYKEY, step(false)),
            ErrorClass::Constraint
        );
        assert_eq!(
            SqliteProfile::classify(ffi::SQLITE_ERROR, Phase::Prepare),
            ErrorClass::Syntax
        );
        assert_eq!(
            SqliteProfile::classify(ffi::SQLITE_ERROR, step(false)),
            ErrorClass::Other
        );
    }

    #[test]
    fn deadlocks_need_a_rollback_constraints_do_not() {
        let err = |class| DbError {
            class,
            code: None,
            message: String::new(),
        };
        let p = SqliteProfile;
        assert_eq!(
            p.error_effect(&err(ErrorClass::Deadlock)),
            ErrorEffect::NeedsRollback
        );
        assert_eq!(
            p.error_effect(&err(ErrorClass::Constraint)),
            ErrorEffect::Statement
        );
    }
}
