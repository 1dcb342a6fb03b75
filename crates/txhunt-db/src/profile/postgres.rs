//! PostgreSQL (10–18), as tested here on 15.
//!
//! * Isolation per session with `SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL`;
//!   READ UNCOMMITTED is accepted and behaves as READ COMMITTED (the default); REPEATABLE READ is
//!   snapshot isolation; SERIALIZABLE is SSI.
//! * Any error inside a transaction block aborts it: later statements fail with 25P02 until a
//!   ROLLBACK, which txhunt sends (paper 001 §5.3.2).
//! * Lock waits: `pg_blocking_pids(pid)` is non-empty while the backend waits on a heavyweight
//!   lock (rows, tables, transaction ids), read live from the lock manager.

use super::claim::{
    Claim, PG_SNAPSHOT_ORDER, PG_SSI_FALSE_POSITIVES, PG_STATEMENT_SNAPSHOTS, PG_WRITE_SKEW,
    SSI_ORDER,
};
use super::guarantee::{self, Guarantee};
use super::semantics::{self, Semantics};
use super::{ErrorEffect, ProbeQuery, Profile, ServerProfile, ANSI_LEVELS};
use crate::target::{SessionConfig, TargetError};
use txhunt_model::{DbError, ErrorClass, Isolation, SqlFamily};

/// The PostgreSQL profile.
#[derive(Debug, Default, Clone, Copy)]
pub struct PostgresProfile;

/// Sorts a SQLSTATE shared by PostgreSQL and CockroachDB.
pub(crate) fn classify_sqlstate(code: &str) -> ErrorClass {
    match code {
        "40P01" => ErrorClass::Deadlock,
        "40001" => ErrorClass::Serialization,
        "55P03" => ErrorClass::LockTimeout,
        "25P02" => ErrorClass::Aborted,
        "57P01" | "57P02" | "57P03" => ErrorClass::Connection,
        _ => match &code[..code.len().min(2)] {
            "23" => ErrorClass::Constraint,
            "42" | "0A" => ErrorClass::Syntax,
            "08" => ErrorClass::Connection,
            "XX" => ErrorClass::Internal,
            _ => ErrorClass::Other,
        },
    }
}

/// The documented relaxations of PostgreSQL's levels, shared by CockroachDB (READ
/// UNCOMMITTED behaves as READ COMMITTED).
pub(crate) fn snapshot_claims(isolation: Isolation) -> &'static [Claim] {
    match isolation {
        Isolation::ReadUncommitted | Isolation::ReadCommitted => &[PG_STATEMENT_SNAPSHOTS],
        Isolation::RepeatableRead => &[PG_SNAPSHOT_ORDER, PG_WRITE_SKEW],
        Isolation::Serializable => &[SSI_ORDER, PG_SSI_FALSE_POSITIVES],
        Isolation::Snapshot => &[],
    }
}

/// `SET SESSION CHARACTERISTICS …` for `config`.
pub(crate) fn isolation_setup(config: SessionConfig) -> String {
    format!(
        "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL {}",
        config.isolation.sql()
    )
}

impl Profile for PostgresProfile {
    fn name(&self) -> &'static str {
        "postgres"
    }

    fn guarantee(&self, isolation: Isolation) -> &'static Guarantee {
        match isolation {
            Isolation::ReadUncommitted | Isolation::ReadCommitted => {
                &guarantee::POSTGRES_READ_COMMITTED
            }
            Isolation::RepeatableRead | Isolation::Snapshot => &guarantee::POSTGRES_REPEATABLE_READ,
            Isolation::Serializable => &guarantee::PL_3,
        }
    }

    fn isolation_levels(&self) -> &'static [Isolation] {
        ANSI_LEVELS
    }

    fn family(&self) -> SqlFamily {
        SqlFamily::Postgres
    }

    fn semantics(&self) -> &'static Semantics {
        &semantics::POSTGRES
    }

    fn reported_as(&self) -> &'static [&'static str] {
        &["postgresql", "postgres"]
    }

    fn claims(&self, isolation: Isolation) -> &'static [Claim] {
        snapshot_claims(isolation)
    }

    fn default_isolation(&self) -> Isolation {
        Isolation::ReadCommitted
    }

    fn error_effect(&self, _error: &DbError) -> ErrorEffect {
        ErrorEffect::NeedsRollback
    }

    /// PostgreSQL releases row and table locks only when a transaction or a subtransaction
    /// (`ROLLBACK TO SAVEPOINT`) ends, at every level ("Explicit Locking").
    fn holds_locks_to_txn_end(&self, _level: Isolation) -> bool {
        true
    }
}

impl ServerProfile for PostgresProfile {
    fn session_setup(&self, config: SessionConfig) -> Result<Vec<String>, TargetError> {
        super::check_config(self, config)?;
        Ok(vec![isolation_setup(config)])
    }

    fn classify(&self, code: &str, _message: &str) -> ErrorClass {
        classify_sqlstate(code)
    }

    fn lock_wait_probe(&self, id: &str) -> Vec<ProbeQuery> {
        vec![ProbeQuery::Count(format!(
            "SELECT cardinality(pg_blocking_pids({id}))"
        ))]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_sqlstates_and_poisons_transactions() {
        let p = PostgresProfile;
        assert_eq!(p.classify("40P01", ""), ErrorClass::Deadlock);
        assert_eq!(p.classify("40001", ""), ErrorClass::Serialization);
        assert_eq!(p.classify("23505", ""), ErrorClass::Constraint);
        assert_eq!(p.classify("42P01", ""), ErrorClass::Syntax);
        assert_eq!(p.classify("25P02", ""), ErrorClass::Aborted);
        assert_eq!(p.classify("XX000", ""), ErrorClass::Internal);
        assert_eq!(p.classify("22012", ""), ErrorClass::Other);
        let e = DbError {
            class: ErrorClass::Constraint,
            code: Some("23505".into()),
            message: String::new(),
        };
        assert_eq!(p.error_effect(&e), ErrorEffect::NeedsRollback);
        let config = SessionConfig {
            isolation: Isolation::RepeatableRead,
            mode: None,
        };
        assert_eq!(
            p.session_setup(config).unwrap(),
            ["SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL REPEATABLE READ"]
        );
    }
}
