//! TiDB, implemented from its manual; no TiDB can be run here.
//!
//! * Isolation: READ COMMITTED and REPEATABLE READ (TiDB's is snapshot isolation); SERIALIZABLE
//!   is refused unless `tidb_skip_isolation_level_check` is set, so txhunt does not offer it.
//! * Modes: pessimistic (default) and optimistic, per session with `tidb_txn_mode` so that both
//!   explicit `BEGIN` and autocommit statements use it (equivalent to `BEGIN PESSIMISTIC` /
//!   `BEGIN OPTIMISTIC` for explicit transactions).
//! * Deadlock (1213) and write conflicts (9007, 8002, 8022) abort the transaction and TiDB ends
//!   it: no ROLLBACK needed; under the optimistic mode a conflicting COMMIT fails (paper 001
//!   §5.3.2).
//! * Lock waits: `information_schema.TIDB_TRX` shows `STATE = 'LockWaiting'` for the session.

use super::claim::{Claim, TIDB_SEMI_CONSISTENT_READ, TIDB_SNAPSHOT_ORDER};
use super::guarantee::{self, Guarantee};
use super::semantics::{self, Semantics};
use super::{
    classify_mysql_errno, mysql_level_name, ErrorEffect, ProbeQuery, Profile, ServerProfile,
};
use crate::target::{SessionConfig, TargetError};
use txhunt_model::{DbError, ErrorClass, Isolation, Mode, SqlFamily};

/// The TiDB profile.
#[derive(Debug, Default, Clone, Copy)]
pub struct TidbProfile;

impl Profile for TidbProfile {
    fn modes(&self) -> &'static [Mode] {
        &[Mode::Pessimistic, Mode::Optimistic]
    }

    fn name(&self) -> &'static str {
        "tidb"
    }

    fn family(&self) -> SqlFamily {
        SqlFamily::Mysql
    }

    fn semantics(&self) -> &'static Semantics {
        &semantics::TIDB
    }

    fn reported_as(&self) -> &'static [&'static str] {
        &["tidb"]
    }

    fn guarantee(&self, isolation: Isolation) -> &'static Guarantee {
        match isolation {
            Isolation::ReadUncommitted | Isolation::ReadCommitted => {
                &guarantee::TIDB_READ_COMMITTED
            }
            _ => &guarantee::TIDB_REPEATABLE_READ,
        }
    }

    fn isolation_levels(&self) -> &'static [Isolation] {
        &[Isolation::ReadCommitted, Isolation::RepeatableRead]
    }

    fn default_isolation(&self) -> Isolation {
        Isolation::RepeatableRead
    }

    /// TiDB takes no gap locks at any level (paper 001 §6.4); no re-execution can switch
    /// them on, so violations they cause stay bug candidates for a person to judge.
    fn claims(&self, isolation: Isolation) -> &'static [Claim] {
        match isolation {
            Isolation::ReadCommitted => &[TIDB_SEMI_CONSISTENT_READ],
            Isolation::RepeatableRead => &[TIDB_SEMI_CONSISTENT_READ, TIDB_SNAPSHOT_ORDER],
            _ => &[],
        }
    }

    fn error_effect(&self, error: &DbError) -> ErrorEffect {
        match error.class {
            ErrorClass::Deadlock | ErrorClass::Serialization => ErrorEffect::RolledBack,
            _ => ErrorEffect::Statement,
        }
    }
}

impl ServerProfile for TidbProfile {
    fn session_setup(&self, config: SessionConfig) -> Result<Vec<String>, TargetError> {
        super::check_config(self, config)?;
        let mode = config.mode.unwrap_or(Mode::Pessimistic);
        Ok(vec![
            format!(
                "SET SESSION transaction_isolation = '{}'",
                mysql_level_name(config.isolation)
            ),
            format!("SET SESSION tidb_txn_mode = '{}'", mode.name()),
        ])
    }

    fn classify(&self, code: &str, _message: &str) -> ErrorClass {
        let errno: u32 = code.parse().unwrap_or(0);
        match errno {
            9007 | 8002 | 8022 | 8028 => ErrorClass::Serialization,
            // "Information schema is changed" and friends: a schema change interfered.
            8027 => ErrorClass::Serialization,
            _ => classify_mysql_errno(errno).unwrap_or(ErrorClass::Other),
        }
    }

    fn lock_wait_probe(&self, id: &str) -> Vec<ProbeQuery> {
        vec![ProbeQuery::Count(format!(
            "SELECT COUNT(*) FROM information_schema.TIDB_TRX WHERE SESSION_ID = {id} AND STATE = 'LockWaiting'"
        ))]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_mode_and_refuses_serializable() {
        let optimistic = SessionConfig {
            isolation: Isolation::RepeatableRead,
            mode: Some(Mode::Optimistic),
        };
        assert_eq!(
            TidbProfile.session_setup(optimistic).unwrap(),
            [
                "SET SESSION transaction_isolation = 'REPEATABLE-READ'",
                "SET SESSION tidb_txn_mode = 'optimistic'"
            ]
        );
        let ser = SessionConfig {
            isolation: Isolation::Serializable,
            mode: None,
        };
        assert!(TidbProfile.session_setup(ser).is_err());
        assert_eq!(
            TidbProfile.classify("9007", "Write conflict"),
            ErrorClass::Serialization
        );
        let conflict = DbError {
            class: ErrorClass::Serialization,
            code: Some("9007".into()),
            message: String::new(),
        };
        assert_eq!(TidbProfile.error_effect(&conflict), ErrorEffect::RolledBack);
    }
}
