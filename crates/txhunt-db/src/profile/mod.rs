//! What txhunt knows about each DBMS: its isolation levels and how its errors end transactions.

pub mod sqlite;

use txhunt_model::{DbError, Isolation};

/// What an error does to the transaction it happened in (paper 001 §5.3.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorEffect {
    /// Only the statement failed; the transaction goes on.
    Statement,
    /// The DBMS aborted the transaction but leaves it open: txhunt must send a ROLLBACK (SQLite
    /// and MariaDB after a deadlock, PostgreSQL after any error).
    NeedsRollback,
    /// The DBMS rolled the transaction back itself (MySQL and TiDB after a deadlock).
    RolledBack,
}

/// A DBMS's behaviour, as data plus small functions; one file per DBMS.
pub trait Profile: Send + Sync {
    /// The DBMS's name, e.g. `sqlite`.
    fn name(&self) -> &'static str;
    /// The isolation levels it offers, weakest first.
    fn isolation_levels(&self) -> &'static [Isolation];
    /// The level a session gets when none is asked for.
    fn default_isolation(&self) -> Isolation;
    /// What `error`, raised inside an explicit transaction, does to that transaction.
    fn error_effect(&self, error: &DbError) -> ErrorEffect;
    /// Whether the driver reports lock waits through a [`crate::LockWaitHook`] as they happen.
    fn reports_lock_waits(&self) -> bool;

    /// The supported levels as text, for error messages.
    fn isolation_names(&self) -> String {
        self.isolation_levels()
            .iter()
            .map(|l| l.name())
            .collect::<Vec<_>>()
            .join(", ")
    }
}
