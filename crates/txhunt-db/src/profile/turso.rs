//! Turso (the `turso` crate, 0.8.3): an SQLite-compatible engine in Rust, embedded.
//!
//! * Normal mode (`turso`): SQLite's model — WAL, one writer at a time, `BEGIN` deferred;
//!   SERIALIZABLE is its only level. A second writer gets `Busy` at once (Turso has no busy
//!   handler txhunt could hook, and its busy timeout spins). The txhunt driver follows
//!   SQLite's busy-handler rule (SQLite's `sqlite3BtreeBeginTrans` calls the handler only for
//!   a connection that holds no transaction yet): a session that already holds a read
//!   snapshot in its transaction gets the `Busy` at once (`deadlock`, as txhunt's SQLite
//!   target reports an SQLITE_BUSY no handler waited for); any other `Busy` becomes a
//!   reported lock wait and the statement is retried while the executor lets it (after the
//!   wait, `lock-timeout`). A write from a stale snapshot fails with `BusySnapshot`
//!   (`serialization`).
//! * MVCC mode (`turso-mvcc`, `PRAGMA journal_mode = 'mvcc'`): `BEGIN` is sent as
//!   `BEGIN CONCURRENT`; snapshot isolation (SNAPSHOT), nothing blocks, and a write-write
//!   conflict fails the statement (or the COMMIT) with "Write-write conflict" after Turso
//!   rolled the transaction back itself. With no stronger level to re-run at, its write
//!   skew is shown by replaying each transaction on its snapshot
//!   ([`TURSO_WRITE_SKEW`]).
//! * Errors come as `turso::Error` variants; conflicts only as text, so they are classified
//!   by message.

use super::claim::{Claim, TURSO_SNAPSHOT_ORDER, TURSO_WRITE_SKEW};
use super::guarantee::{self, Guarantee};
use super::semantics::{self, Semantics};
use super::{ErrorEffect, Profile};
use txhunt_model::{DbError, ErrorClass, Isolation, SqlFamily};

/// The Turso profile, for one of its two modes.
#[derive(Debug, Clone, Copy)]
pub struct TursoProfile {
    /// MVCC mode (`BEGIN CONCURRENT`, snapshot isolation).
    pub mvcc: bool,
}

/// Normal (WAL) mode.
pub static TURSO: TursoProfile = TursoProfile { mvcc: false };
/// MVCC mode.
pub static TURSO_MVCC: TursoProfile = TursoProfile { mvcc: true };

impl TursoProfile {
    /// Sorts a `turso::Error`, given its variant name and message and whether the statement
    /// waited for a lock before it (see the module's notes on `Busy`), into a class.
    pub fn classify(variant: &str, message: &str, waited: bool) -> ErrorClass {
        let lower = message.to_ascii_lowercase();
        match variant {
            "Busy" if !waited => ErrorClass::Deadlock,
            "Busy" => ErrorClass::LockTimeout,
            "BusySnapshot" => ErrorClass::Serialization,
            "Constraint" => ErrorClass::Constraint,
            "Interrupt" => ErrorClass::Other,
            "Corrupt" | "NotAdb" | "IoError" => ErrorClass::Internal,
            _ if lower.contains("conflict") => ErrorClass::Serialization,
            // Raised while running, like SQLite's SQLITE_ERROR from a step ("no such
            // savepoint", "cannot commit - no transaction is active"): not a rejected text.
            _ if lower.starts_with("transaction error") => ErrorClass::Other,
            _ if lower.contains("syntax error")
                || lower.contains("no such")
                || lower.contains("not supported")
                || lower.contains("unsupported")
                || lower.contains("not implemented") =>
            {
                ErrorClass::Syntax
            }
            _ if lower.contains("panic") || lower.contains("internal") => ErrorClass::Internal,
            _ => ErrorClass::Other,
        }
    }
}

impl Profile for TursoProfile {
    fn name(&self) -> &'static str {
        if self.mvcc {
            "turso-mvcc"
        } else {
            "turso"
        }
    }

    fn family(&self) -> SqlFamily {
        SqlFamily::Sqlite
    }

    /// Normal mode claims SQLite's locking model; MVCC mode is Turso's own.
    fn semantics(&self) -> &'static Semantics {
        if self.mvcc {
            &semantics::TURSO_MVCC
        } else {
            &semantics::SQLITE
        }
    }

    fn reported_as(&self) -> &'static [&'static str] {
        &["turso", "sqlite"]
    }

    fn guarantee(&self, isolation: Isolation) -> &'static Guarantee {
        match isolation {
            Isolation::Snapshot => &guarantee::TURSO_SNAPSHOT,
            _ => &guarantee::PL_3,
        }
    }

    fn isolation_levels(&self) -> &'static [Isolation] {
        if self.mvcc {
            &[Isolation::Snapshot]
        } else {
            &[Isolation::Serializable]
        }
    }

    fn default_isolation(&self) -> Isolation {
        self.isolation_levels()[0]
    }

    /// A conflict or stale snapshot ends the transaction (Turso rolls an MVCC transaction back
    /// itself; txhunt asks whether one is still open).
    fn error_effect(&self, error: &DbError) -> ErrorEffect {
        match error.class {
            ErrorClass::Serialization | ErrorClass::Deadlock => ErrorEffect::NeedsRollback,
            _ => ErrorEffect::Statement,
        }
    }

    fn reports_lock_waits(&self) -> bool {
        true
    }

    fn savepoint_opens_transaction(&self) -> bool {
        true
    }

    fn claims(&self, isolation: Isolation) -> &'static [Claim] {
        match (self.mvcc, isolation) {
            (true, Isolation::Snapshot) => &[TURSO_SNAPSHOT_ORDER, TURSO_WRITE_SKEW],
            _ => &[],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turso_errors_are_classified_by_variant_then_message() {
        assert_eq!(
            TursoProfile::classify("Busy", "database is locked", true),
            ErrorClass::LockTimeout
        );
        assert_eq!(
            TursoProfile::classify("Busy", "database is locked", false),
            ErrorClass::Deadlock
        );
        assert_eq!(
            TursoProfile::classify("Error", "Write-write conflict", false),
            ErrorClass::Serialization
        );
        assert_eq!(
            TursoProfile::classify("Error", "near \"SELEC\": syntax error", false),
            ErrorClass::Syntax
        );
        assert_eq!(
            TursoProfile::classify("Constraint", "UNIQUE constraint failed: k.id", false),
            ErrorClass::Constraint
        );
        assert_eq!(
            TursoProfile::classify("Error", "Transaction error: no such savepoint: sp1", false),
            ErrorClass::Other
        );
        assert_eq!(TURSO_MVCC.isolation_levels(), &[Isolation::Snapshot]);
        assert_eq!(TURSO.name(), "turso");
    }
}
