//! CockroachDB, implemented from its manual; no CockroachDB can be run here.
//!
//! * Isolation: SERIALIZABLE (default), READ COMMITTED (23.2+) and REPEATABLE READ (24.1+,
//!   snapshot isolation), set per session like PostgreSQL.
//! * Errors abort the transaction like PostgreSQL; retry errors are 40001 (`serialization`).
//! * Lock waits: `crdb_internal.cluster_locks` rows with `granted = false` whose transaction
//!   belongs to the session (`crdb_internal.cluster_transactions.session_id`).

use super::claim::Claim;
use super::guarantee::{self, Guarantee};
use super::postgres::{classify_sqlstate, isolation_setup, snapshot_claims};
use super::semantics::{self, Semantics};
use super::{ErrorEffect, ProbeQuery, Profile, ServerProfile};
use crate::target::{SessionConfig, TargetError};
use txhunt_model::{DbError, ErrorClass, Isolation, SqlFamily};

/// The CockroachDB profile.
#[derive(Debug, Default, Clone, Copy)]
pub struct CockroachProfile;

impl Profile for CockroachProfile {
    fn name(&self) -> &'static str {
        "cockroach"
    }

    fn guarantee(&self, isolation: Isolation) -> &'static Guarantee {
        match isolation {
            Isolation::ReadUncommitted | Isolation::ReadCommitted => {
                &guarantee::COCKROACH_READ_COMMITTED
            }
            Isolation::RepeatableRead | Isolation::Snapshot => {
                &guarantee::COCKROACH_REPEATABLE_READ
            }
            Isolation::Serializable => &guarantee::PL_3,
        }
    }

    fn isolation_levels(&self) -> &'static [Isolation] {
        &[
            Isolation::ReadCommitted,
            Isolation::RepeatableRead,
            Isolation::Serializable,
        ]
    }

    fn default_isolation(&self) -> Isolation {
        Isolation::Serializable
    }

    fn family(&self) -> SqlFamily {
        SqlFamily::Postgres
    }

    fn semantics(&self) -> &'static Semantics {
        &semantics::COCKROACH
    }

    fn reported_as(&self) -> &'static [&'static str] {
        &["cockroachdb", "cockroach"]
    }

    fn claims(&self, isolation: Isolation) -> &'static [Claim] {
        snapshot_claims(isolation)
    }

    fn error_effect(&self, _error: &DbError) -> ErrorEffect {
        ErrorEffect::NeedsRollback
    }
}

impl ServerProfile for CockroachProfile {
    fn session_setup(&self, config: SessionConfig) -> Result<Vec<String>, TargetError> {
        super::check_config(self, config)?;
        Ok(vec![isolation_setup(config)])
    }

    fn classify(&self, code: &str, _message: &str) -> ErrorClass {
        classify_sqlstate(code)
    }

    fn session_id_query(&self) -> &'static str {
        "SHOW session_id"
    }

    fn lock_wait_probe(&self, id: &str) -> Vec<ProbeQuery> {
        vec![ProbeQuery::Count(format!(
            "SELECT count(*) FROM crdb_internal.cluster_locks l \
             JOIN crdb_internal.cluster_transactions t ON l.txn_id = t.id \
             WHERE NOT l.granted AND t.session_id = '{id}'"
        ))]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serializable_by_default_and_retry_errors_are_serialization_failures() {
        assert_eq!(
            CockroachProfile.default_isolation(),
            Isolation::Serializable
        );
        assert_eq!(
            CockroachProfile.classify("40001", "restart transaction"),
            ErrorClass::Serialization
        );
        let ru = SessionConfig {
            isolation: Isolation::ReadUncommitted,
            mode: None,
        };
        assert!(CockroachProfile.session_setup(ru).is_err());
        assert!(
            matches!(&CockroachProfile.lock_wait_probe("abc")[0], ProbeQuery::Count(q) if q.contains("session_id = 'abc'"))
        );
    }
}
