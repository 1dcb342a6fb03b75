//! MariaDB (InnoDB), as tested here on 10.11.
//!
//! * Isolation per session with `SET SESSION tx_isolation` (10.11 has no
//!   `transaction_isolation`); levels RU, RC, RR (default), SERIALIZABLE.
//! * Deadlock (1213): InnoDB rolls the victim's transaction back; paper 001 §5.3.2 sends a
//!   ROLLBACK for MariaDB, and txhunt asks `@@in_transaction` to know for sure.
//! * Lock-wait timeout (1205): only the statement is rolled back (`innodb_rollback_on_timeout`
//!   is off by default).
//! * Lock waits: `SHOW ENGINE INNODB STATUS` lists each waiting transaction (`LOCK WAIT`) with
//!   its `MariaDB thread id`; `information_schema.PROCESSLIST` shows metadata and table-level
//!   lock waits (`Waiting for … lock`). `information_schema.INNODB_TRX` is not used: it is a copy
//!   InnoDB refreshes only after 0.1 s without readers, so a probe that polls sees a frozen
//!   picture (measured: a waiter still shown as `LOCK WAIT` seconds after it resumed).

use super::permission::Permission;
use super::{
    classify_mysql_errno, innodb_permissions, mysql_level_name, ErrorEffect, Family, ProbeQuery,
    Profile, ServerProfile, ANSI_LEVELS,
};
use crate::target::SessionConfig;
use txhunt_model::{DbError, ErrorClass, Isolation};

/// The MariaDB profile.
#[derive(Debug, Default, Clone, Copy)]
pub struct MariadbProfile;

impl Profile for MariadbProfile {
    /// InnoDB's SERIALIZABLE turns plain reads into shared-locking reads.
    fn serializable_reads_lock(&self) -> bool {
        true
    }

    fn name(&self) -> &'static str {
        "mariadb"
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
            ErrorClass::Deadlock | ErrorClass::Serialization => ErrorEffect::NeedsRollback,
            _ => ErrorEffect::Statement,
        }
    }
}

impl ServerProfile for MariadbProfile {
    fn family(&self) -> Family {
        Family::Mysql
    }

    fn session_setup(&self, config: SessionConfig) -> Result<Vec<String>, String> {
        super::check_config(self, config)?;
        Ok(vec![format!(
            "SET SESSION tx_isolation = '{}'",
            mysql_level_name(config.isolation)
        )])
    }

    fn classify(&self, code: &str, _message: &str) -> ErrorClass {
        let errno: u32 = code.parse().unwrap_or(0);
        match errno {
            // "Record has changed since last read" (innodb_snapshot_isolation)
            1020 => ErrorClass::Serialization,
            _ => classify_mysql_errno(errno).unwrap_or(ErrorClass::Other),
        }
    }

    fn lock_wait_probe(&self, id: &str) -> Vec<ProbeQuery> {
        vec![
            ProbeQuery::Count(format!(
                "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = {id} AND STATE LIKE 'Waiting for%lock%'"
            )),
            ProbeQuery::InnodbStatus,
        ]
    }

    fn in_transaction_query(&self) -> Option<&'static str> {
        Some("SELECT @@in_transaction")
    }
}

/// Whether `SHOW ENGINE INNODB STATUS` text shows connection `thread_id` waiting on a lock:
/// a `---TRANSACTION` block with a `LOCK WAIT` line and `thread id <thread_id>,` (MariaDB
/// writes `MariaDB thread id`, MySQL `MySQL thread id`).
pub fn waiting_in_innodb_status(status: &str, thread_id: &str) -> bool {
    let needle = format!("thread id {thread_id},");
    status
        .split("---TRANSACTION ")
        .skip(1)
        .any(|block| block.lines().any(|l| l.starts_with("LOCK WAIT")) && block.contains(&needle))
}

#[cfg(test)]
mod tests {
    use super::*;

    const STATUS: &str = "------------\nTRANSACTIONS\n------------\n\
LIST OF TRANSACTIONS FOR EACH SESSION:\n\
---TRANSACTION 30, ACTIVE 0 sec starting index read\n\
mysql tables in use 1, locked 1\n\
LOCK WAIT 2 lock struct(s), heap size 1128, 1 row lock(s)\n\
MariaDB thread id 70, OS thread handle 140307456829120, query id 750 localhost 127.0.0.1 root Updating\n\
update x.t set v=3 where k=1\n\
------- TRX HAS BEEN WAITING 2740 us FOR THIS LOCK TO BE GRANTED:\n\
---TRANSACTION 29, ACTIVE 1 sec\n\
2 lock struct(s), heap size 1128, 1 row lock(s), undo log entries 1\n\
MariaDB thread id 7, OS thread handle 1, query id 740 localhost 127.0.0.1 root User sleep\n";

    #[test]
    fn finds_the_waiting_thread_in_innodb_status() {
        assert!(waiting_in_innodb_status(STATUS, "70"));
        assert!(!waiting_in_innodb_status(STATUS, "7"));
        assert!(!waiting_in_innodb_status(STATUS, "0"));
    }

    #[test]
    fn sets_isolation_per_session_with_tx_isolation() {
        let config = SessionConfig {
            isolation: Isolation::ReadCommitted,
            mode: None,
        };
        assert_eq!(
            MariadbProfile.session_setup(config).unwrap(),
            ["SET SESSION tx_isolation = 'READ-COMMITTED'"]
        );
        let snapshot = SessionConfig {
            isolation: Isolation::Snapshot,
            mode: None,
        };
        assert!(MariadbProfile
            .session_setup(snapshot)
            .unwrap_err()
            .contains("it supports"));
    }

    #[test]
    fn classifies_errnos() {
        let p = MariadbProfile;
        assert_eq!(p.classify("1213", ""), ErrorClass::Deadlock);
        assert_eq!(p.classify("1205", ""), ErrorClass::LockTimeout);
        assert_eq!(p.classify("1062", ""), ErrorClass::Constraint);
        assert_eq!(p.classify("1064", ""), ErrorClass::Syntax);
        assert_eq!(p.classify("2013", ""), ErrorClass::Connection);
        assert_eq!(p.classify("1020", ""), ErrorClass::Serialization);
        assert_eq!(p.classify("1815", ""), ErrorClass::Internal);
        assert_eq!(p.classify("1366", ""), ErrorClass::Other);
        let deadlock = DbError {
            class: ErrorClass::Deadlock,
            code: Some("1213".into()),
            message: String::new(),
        };
        assert_eq!(p.error_effect(&deadlock), ErrorEffect::NeedsRollback);
    }
}
