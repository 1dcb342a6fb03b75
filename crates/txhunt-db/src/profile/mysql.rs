//! MySQL 8.x (InnoDB), implemented from its manual; no MySQL server can be run here.
//!
//! * Isolation per session with `SET SESSION transaction_isolation`; RU, RC, RR (default), SER.
//! * Deadlock (1213): InnoDB rolls the whole transaction back and MySQL ends it; no ROLLBACK is
//!   needed (paper 001 §5.3.2).
//! * Lock waits: `performance_schema.data_lock_waits` (row locks, live from the lock system)
//!   and `performance_schema.metadata_locks` with `LOCK_STATUS = 'PENDING'`, joined to the
//!   session's `PROCESSLIST_ID` through `performance_schema.threads`.

use super::permission::Permission;
use super::{
    classify_mysql_errno, innodb_permissions, mysql_level_name, ErrorEffect, Family, ProbeQuery,
    Profile, ServerProfile, ANSI_LEVELS,
};
use crate::target::SessionConfig;
use txhunt_model::{DbError, ErrorClass, Isolation};

/// The MySQL 8 profile.
#[derive(Debug, Default, Clone, Copy)]
pub struct MysqlProfile;

impl Profile for MysqlProfile {
    /// InnoDB's SERIALIZABLE turns plain reads into shared-locking reads.
    fn serializable_reads_lock(&self) -> bool {
        true
    }

    fn name(&self) -> &'static str {
        "mysql"
    }

    fn isolation_levels(&self) -> &'static [Isolation] {
        ANSI_LEVELS
    }

    fn permissions(&self, isolation: Isolation) -> &'static [Permission] {
        innodb_permissions(isolation)
    }

    fn default_isolation(&self) -> Isolation {
        Isolation::RepeatableRead
    }

    fn error_effect(&self, error: &DbError) -> ErrorEffect {
        match error.class {
            ErrorClass::Deadlock => ErrorEffect::RolledBack,
            _ => ErrorEffect::Statement,
        }
    }
}

impl ServerProfile for MysqlProfile {
    fn family(&self) -> Family {
        Family::Mysql
    }

    fn session_setup(&self, config: SessionConfig) -> Result<Vec<String>, String> {
        super::check_config(self, config)?;
        Ok(vec![format!(
            "SET SESSION transaction_isolation = '{}'",
            mysql_level_name(config.isolation)
        )])
    }

    fn classify(&self, code: &str, _message: &str) -> ErrorClass {
        classify_mysql_errno(code.parse().unwrap_or(0)).unwrap_or(ErrorClass::Other)
    }

    fn lock_wait_probe(&self, id: &str) -> Vec<ProbeQuery> {
        vec![ProbeQuery::Count(format!(
            "SELECT (SELECT COUNT(*) FROM performance_schema.data_lock_waits w \
             JOIN performance_schema.threads t ON w.REQUESTING_THREAD_ID = t.THREAD_ID \
             WHERE t.PROCESSLIST_ID = {id}) + \
             (SELECT COUNT(*) FROM performance_schema.metadata_locks m \
             JOIN performance_schema.threads t ON m.OWNER_THREAD_ID = t.THREAD_ID \
             WHERE t.PROCESSLIST_ID = {id} AND m.LOCK_STATUS = 'PENDING')"
        ))]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uses_transaction_isolation_and_lets_mysql_end_deadlocked_transactions() {
        let config = SessionConfig {
            isolation: Isolation::Serializable,
            mode: None,
        };
        assert_eq!(
            MysqlProfile.session_setup(config).unwrap(),
            ["SET SESSION transaction_isolation = 'SERIALIZABLE'"]
        );
        let deadlock = DbError {
            class: MysqlProfile.classify("1213", "Deadlock found"),
            code: Some("1213".into()),
            message: String::new(),
        };
        assert_eq!(
            MysqlProfile.error_effect(&deadlock),
            ErrorEffect::RolledBack
        );
        let probe = MysqlProfile.lock_wait_probe("42");
        assert!(
            matches!(&probe[0], ProbeQuery::Count(q) if q.contains("PROCESSLIST_ID = 42") && q.contains("data_lock_waits"))
        );
    }
}
