//! DuckDB (the `duckdb` crate over the `libduckdb.so` that `scripts/fetch-duckdb` fetches),
//! embedded.
//!
//! * One level, snapshot isolation ([`Isolation::Snapshot`]): MVCC with optimistic concurrency
//!   control. Nothing ever waits: a second edit (UPDATE or DELETE) of a row fails at once with
//!   "TransactionContext Error: Conflict on …" (`serialization`), and two transactions that
//!   inserted the same key learn it when the second commits ("Failed to commit: PRIMARY KEY
//!   or UNIQUE constraint violation", `constraint`). Write skew is allowed
//!   ([`DUCKDB_WRITE_SKEW`]).
//! * Errors come as one code (`DuckDBError`) with a message whose prefix names DuckDB's
//!   exception type (`Parser Error:`, `Constraint Error:`, …); they are classified by it.
//! * An error raised while a statement runs (conversion, constraint, conflict) aborts the
//!   transaction: every later statement fails with "Current transaction is aborted (please
//!   ROLLBACK)" (`aborted`), and a COMMIT ends it as a rollback. An error raised before it
//!   runs (parser, binder, catalog) leaves the transaction as it was.
//! * The generators speak SQLite's dialect to it (DuckDB accepts `INSERT OR IGNORE`,
//!   `INSERT OR REPLACE` and `ON CONFLICT`, and has no row locks), so it is compared with
//!   SQLite and Turso by the differential oracle; DuckDB's strict typing refuses what SQLite's
//!   type affinity converts (`Conversion Error`), which is a dialect difference (`syntax`).

use super::claim::{Claim, DUCKDB_SNAPSHOT_ORDER, DUCKDB_WRITE_SKEW};
use super::guarantee::{self, Guarantee};
use super::semantics::{self, Semantics};
use super::{ErrorEffect, Profile};
use txhunt_model::{DbError, ErrorClass, Isolation, SqlFamily};

/// The DuckDB profile.
#[derive(Debug, Clone, Copy)]
pub struct DuckdbProfile;

/// DuckDB's exception types whose errors are raised before the statement runs (it was
/// rejected as text, or names what does not exist): they leave the transaction as it was.
const REJECTED: [&str; 4] = [
    "Parser Error",
    "Binder Error",
    "Catalog Error",
    "Not implemented Error",
];

impl DuckdbProfile {
    /// Sorts a DuckDB error message (`Type Error: …`) into a class.
    pub fn classify(message: &str) -> ErrorClass {
        let kind = message.split_once(':').map_or("", |(kind, _)| kind);
        let lower = message.to_ascii_lowercase();
        match kind {
            _ if REJECTED.contains(&kind) => ErrorClass::Syntax,
            // DuckDB's strict types refuse what SQLite's affinity converts: a dialect difference.
            "Conversion Error" => ErrorClass::Syntax,
            "TransactionContext Error" if lower.contains("transaction is aborted") => {
                ErrorClass::Aborted
            }
            "TransactionContext Error" if lower.contains("constraint violation") => {
                ErrorClass::Constraint
            }
            "TransactionContext Error" if lower.contains("conflict") => ErrorClass::Serialization,
            "Constraint Error" | "Out of Range Error" => ErrorClass::Constraint,
            "INTERNAL Error" | "FATAL Error" => ErrorClass::Internal,
            _ => ErrorClass::Other,
        }
    }
}

impl Profile for DuckdbProfile {
    fn name(&self) -> &'static str {
        "duckdb"
    }

    fn family(&self) -> SqlFamily {
        SqlFamily::Sqlite
    }

    fn semantics(&self) -> &'static Semantics {
        &semantics::DUCKDB
    }

    fn reported_as(&self) -> &'static [&'static str] {
        &["duckdb"]
    }

    fn guarantee(&self, _isolation: Isolation) -> &'static Guarantee {
        &guarantee::DUCKDB_SNAPSHOT
    }

    fn isolation_levels(&self) -> &'static [Isolation] {
        &[Isolation::Snapshot]
    }

    fn default_isolation(&self) -> Isolation {
        Isolation::Snapshot
    }

    /// An error raised while the statement ran aborts the transaction; one raised before it
    /// ran does not (see the module's notes).
    fn error_effect(&self, error: &DbError) -> ErrorEffect {
        let kind = error.message.split_once(':').map_or("", |(kind, _)| kind);
        if REJECTED.contains(&kind) {
            ErrorEffect::Statement
        } else {
            ErrorEffect::NeedsRollback
        }
    }

    fn claims(&self, _isolation: Isolation) -> &'static [Claim] {
        &[DUCKDB_SNAPSHOT_ORDER, DUCKDB_WRITE_SKEW]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(message: &str) -> DbError {
        DbError {
            class: DuckdbProfile::classify(message),
            code: None,
            message: message.into(),
        }
    }

    #[test]
    fn errors_are_classified_by_their_exception_type() {
        let cases = [
            ("Parser Error: syntax error at or near \"SELEC\"", ErrorClass::Syntax),
            ("Binder Error: Referenced column \"x\" not found", ErrorClass::Syntax),
            ("Conversion Error: Could not convert string 'a' to INT32", ErrorClass::Syntax),
            ("TransactionContext Error: Conflict on update!", ErrorClass::Serialization),
            (
                "TransactionContext Error: Failed to commit: PRIMARY KEY or UNIQUE constraint violation: duplicate key \"5\"",
                ErrorClass::Constraint,
            ),
            (
                "TransactionContext Error: Current transaction is aborted (please ROLLBACK)",
                ErrorClass::Aborted,
            ),
            ("Constraint Error: Duplicate key \"k: 1\" violates primary key constraint.", ErrorClass::Constraint),
            ("INTERNAL Error: Attempted to access index 3", ErrorClass::Internal),
            ("TransactionContext Error: cannot commit - no transaction is active", ErrorClass::Other),
        ];
        for (message, class) in cases {
            assert_eq!(DuckdbProfile::classify(message), class, "{message}");
        }
    }

    #[test]
    fn only_errors_raised_while_running_abort_the_transaction() {
        let p = DuckdbProfile;
        assert_eq!(
            p.error_effect(&error(
                "Catalog Error: Table with name nope does not exist!"
            )),
            ErrorEffect::Statement
        );
        for message in [
            "Conversion Error: Could not convert string 'abc' to INT32",
            "Constraint Error: NOT NULL constraint failed: t.k",
            "TransactionContext Error: Conflict on update!",
        ] {
            assert_eq!(
                p.error_effect(&error(message)),
                ErrorEffect::NeedsRollback,
                "{message}"
            );
        }
        assert!(p
            .guarantee(Isolation::Snapshot)
            .allowance(txhunt_model::adya::Phenomenon::G2Item)
            .is_some());
    }
}
