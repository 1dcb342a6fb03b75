//! InnoDB servers: MariaDB (tested here on 10.11) and MySQL 8.x (implemented from its manual;
//! no MySQL server can be run here), one profile with the two flavours' differences as data.
//!
//! * Isolation per session: MariaDB 10.11 `SET SESSION tx_isolation` (it has no
//!   `transaction_isolation`), MySQL `SET SESSION transaction_isolation`; levels RU, RC, RR
//!   (default), SERIALIZABLE.
//! * Deadlock (1213): InnoDB rolls the victim's transaction back. MySQL ends it, so no ROLLBACK
//!   is needed; paper 001 §5.3.2 sends one for MariaDB, and txhunt asks `@@in_transaction` to
//!   know for sure.
//! * Lock-wait timeout (1205): only the statement is rolled back (`innodb_rollback_on_timeout`
//!   is off by default).
//! * Lock waits on MariaDB: `SHOW ENGINE INNODB STATUS` lists each waiting transaction
//!   (`LOCK WAIT`) with its `MariaDB thread id`; the process list (`SHOW PROCESSLIST`) shows
//!   metadata and table-level lock waits (`Waiting for … lock`). `information_schema.INNODB_TRX` is not
//!   used: it is a copy InnoDB refreshes only after 0.1 s without readers, so a probe that
//!   polls sees a frozen picture (measured: a waiter still shown as `LOCK WAIT` seconds after
//!   it resumed).
//! * Lock waits on MySQL: `performance_schema.data_lock_waits` (row locks, live from the lock
//!   system) and `performance_schema.metadata_locks` with `LOCK_STATUS = 'PENDING'`, joined to
//!   the session's `PROCESSLIST_ID` through `performance_schema.threads`.
//! * MariaDB's `innodb_snapshot_isolation` (10.6.18 and 10.11.8 on, ON by default from 11.6.2):
//!   at REPEATABLE READ a locking read or a write that meets a row version its transaction's
//!   read view does not show fails with error 1020 instead of acting on it, which makes the
//!   level snapshot isolation ([`MARIADB_SNAPSHOT`]). Which profile a server gets follows the
//!   variable's value, read from the server.

use super::claim::{
    Claim, INNODB_DIRTY_READ, INNODB_LATEST_COMMITTED_WRITES, INNODB_LOCKING_READ_SUBQUERIES,
    INNODB_NO_GAP_LOCKS, INNODB_SEMI_CONSISTENT_READ, INNODB_SNAPSHOT_ORDER,
    INNODB_UNLOCKED_SOURCE_READS, INNODB_WRITE_SKEW,
};
use super::guarantee::{self, Guarantee};
use super::semantics::{self, Semantics};
use super::{
    classify_mysql_errno, mysql_level_name, ErrorEffect, ProbeQuery, Profile, ServerProfile,
    ANSI_LEVELS,
};
use crate::target::{SessionConfig, TargetError};
use txhunt_model::{DbError, ErrorClass, Isolation, SqlFamily};

/// Which InnoDB server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavour {
    /// MariaDB.
    Mariadb,
    /// MySQL 8.
    Mysql,
}

/// The profile of an InnoDB server.
#[derive(Debug, Clone, Copy)]
pub struct InnodbProfile {
    /// Which server.
    pub flavour: Flavour,
    /// Whether REPEATABLE READ refuses writes to rows its read view does not show (MariaDB's
    /// `innodb_snapshot_isolation=ON`).
    pub snapshot_isolation: bool,
}

/// MariaDB's profile, `innodb_snapshot_isolation` OFF (the default before 11.6.2).
pub static MARIADB: InnodbProfile = InnodbProfile {
    flavour: Flavour::Mariadb,
    snapshot_isolation: false,
};

/// MariaDB's profile with `innodb_snapshot_isolation=ON`: REPEATABLE READ is snapshot
/// isolation.
pub static MARIADB_SNAPSHOT: InnodbProfile = InnodbProfile {
    flavour: Flavour::Mariadb,
    snapshot_isolation: true,
};

/// MySQL 8's profile.
pub static MYSQL: InnodbProfile = InnodbProfile {
    flavour: Flavour::Mysql,
    snapshot_isolation: false,
};

/// MariaDB's profile for a value of `innodb_snapshot_isolation`.
pub fn mariadb(snapshot_isolation: bool) -> &'static InnodbProfile {
    if snapshot_isolation {
        &MARIADB_SNAPSHOT
    } else {
        &MARIADB
    }
}

impl Profile for InnodbProfile {
    fn name(&self) -> &'static str {
        match self.flavour {
            Flavour::Mariadb => "mariadb",
            Flavour::Mysql => "mysql",
        }
    }

    fn family(&self) -> SqlFamily {
        SqlFamily::Mysql
    }

    fn semantics(&self) -> &'static Semantics {
        match (self.flavour, self.snapshot_isolation) {
            (Flavour::Mariadb, false) => &semantics::MARIADB,
            (Flavour::Mariadb, true) => &semantics::MARIADB_SNAPSHOT,
            (Flavour::Mysql, _) => &semantics::MYSQL,
        }
    }

    fn reported_as(&self) -> &'static [&'static str] {
        &["mariadb", "mysql"]
    }

    /// InnoDB's SERIALIZABLE turns plain reads into shared-locking reads.
    fn serializable_reads_lock(&self) -> bool {
        true
    }

    fn guarantee(&self, isolation: Isolation) -> &'static Guarantee {
        match isolation {
            Isolation::ReadUncommitted => &guarantee::INNODB_READ_UNCOMMITTED,
            Isolation::ReadCommitted => &guarantee::INNODB_READ_COMMITTED,
            Isolation::RepeatableRead | Isolation::Snapshot if self.snapshot_isolation => {
                &guarantee::INNODB_SNAPSHOT_ISOLATION
            }
            Isolation::RepeatableRead | Isolation::Snapshot => &guarantee::INNODB_REPEATABLE_READ,
            Isolation::Serializable => &guarantee::PL_3,
        }
    }

    fn isolation_levels(&self) -> &'static [Isolation] {
        ANSI_LEVELS
    }

    /// InnoDB's documented relaxations below SERIALIZABLE.
    fn claims(&self, isolation: Isolation) -> &'static [Claim] {
        match isolation {
            Isolation::ReadUncommitted => &[
                INNODB_SEMI_CONSISTENT_READ,
                INNODB_DIRTY_READ,
                INNODB_NO_GAP_LOCKS,
                INNODB_UNLOCKED_SOURCE_READS,
            ],
            Isolation::ReadCommitted => &[
                INNODB_SEMI_CONSISTENT_READ,
                INNODB_NO_GAP_LOCKS,
                INNODB_UNLOCKED_SOURCE_READS,
            ],
            Isolation::RepeatableRead if self.snapshot_isolation => {
                &[INNODB_SNAPSHOT_ORDER, INNODB_WRITE_SKEW]
            }
            Isolation::RepeatableRead => &[
                INNODB_LATEST_COMMITTED_WRITES,
                INNODB_LOCKING_READ_SUBQUERIES,
            ],
            _ => &[],
        }
    }

    fn default_isolation(&self) -> Isolation {
        Isolation::RepeatableRead
    }

    /// At REPEATABLE READ and SERIALIZABLE InnoDB holds row locks until the transaction ends
    /// (a statement rolled back keeps them too); at READ COMMITTED and READ UNCOMMITTED it
    /// releases the locks of rows that do not match a statement's condition while it runs
    /// (semi-consistent reads), so any statement may let a waiter go.
    fn holds_locks_to_txn_end(&self, level: Isolation) -> bool {
        matches!(level, Isolation::RepeatableRead | Isolation::Serializable)
    }

    fn error_effect(&self, error: &DbError) -> ErrorEffect {
        match (self.flavour, error.class) {
            (Flavour::Mariadb, ErrorClass::Deadlock | ErrorClass::Serialization) => {
                ErrorEffect::NeedsRollback
            }
            (Flavour::Mysql, ErrorClass::Deadlock) => ErrorEffect::RolledBack,
            _ => ErrorEffect::Statement,
        }
    }
}

impl ServerProfile for InnodbProfile {
    fn session_setup(&self, config: SessionConfig) -> Result<Vec<String>, TargetError> {
        super::check_config(self, config)?;
        let variable = match self.flavour {
            Flavour::Mariadb => "tx_isolation",
            Flavour::Mysql => "transaction_isolation",
        };
        Ok(vec![format!(
            "SET SESSION {variable} = '{}'",
            mysql_level_name(config.isolation)
        )])
    }

    fn classify(&self, code: &str, _message: &str) -> ErrorClass {
        let errno: u32 = code.parse().unwrap_or(0);
        match (self.flavour, errno) {
            // "Record has changed since last read" (innodb_snapshot_isolation)
            (Flavour::Mariadb, 1020) => ErrorClass::Serialization,
            _ => classify_mysql_errno(errno).unwrap_or(ErrorClass::Other),
        }
    }

    fn lock_wait_probe(&self, id: &str) -> Vec<ProbeQuery> {
        match self.flavour {
            // Row-lock waits, the usual ones, first (the status report is live); a row-lock
            // wait's state in the process list is only the statement's step (`Updating`).
            Flavour::Mariadb => vec![ProbeQuery::InnodbStatus, ProbeQuery::ProcessList],
            Flavour::Mysql => vec![ProbeQuery::Count(format!(
                "SELECT (SELECT COUNT(*) FROM performance_schema.data_lock_waits w \
                 JOIN performance_schema.threads t ON w.REQUESTING_THREAD_ID = t.THREAD_ID \
                 WHERE t.PROCESSLIST_ID = {id}) + \
                 (SELECT COUNT(*) FROM performance_schema.metadata_locks m \
                 JOIN performance_schema.threads t ON m.OWNER_THREAD_ID = t.THREAD_ID \
                 WHERE t.PROCESSLIST_ID = {id} AND m.LOCK_STATUS = 'PENDING')"
            ))],
        }
    }

    fn in_transaction_query(&self) -> Option<&'static str> {
        (self.flavour == Flavour::Mariadb).then_some("SELECT @@in_transaction")
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

/// Whether a process-list `State` is a wait for a lock (`Waiting for table metadata lock`,
/// `Waiting for table level lock`, `Waiting for user lock`, …): it begins with `Waiting for`
/// and names a lock, in any case, as `LIKE 'Waiting for%lock%'` matches it.
pub fn waiting_for_lock_state(state: &str) -> bool {
    let state = state.to_ascii_lowercase();
    state
        .strip_prefix("waiting for")
        .is_some_and(|rest| rest.contains("lock"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_that_waits_for_a_lock_begins_so_and_names_one() {
        assert!(waiting_for_lock_state("Waiting for table metadata lock"));
        assert!(waiting_for_lock_state("Waiting for table level lock"));
        assert!(waiting_for_lock_state("waiting for user LOCK"));
        assert!(!waiting_for_lock_state("Updating"));
        assert!(!waiting_for_lock_state("Waiting for next activation"));
        assert!(!waiting_for_lock_state("Locked waiting for"));
        assert!(!waiting_for_lock_state(""));
    }

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

    fn deadlock(profile: &InnodbProfile) -> DbError {
        DbError {
            class: profile.classify("1213", "Deadlock found"),
            code: Some("1213".into()),
            message: String::new(),
        }
    }

    #[test]
    fn finds_the_waiting_thread_in_innodb_status() {
        assert!(waiting_in_innodb_status(STATUS, "70"));
        assert!(!waiting_in_innodb_status(STATUS, "7"));
        assert!(!waiting_in_innodb_status(STATUS, "0"));
    }

    #[test]
    fn mariadb_sets_isolation_per_session_with_tx_isolation() {
        let config = SessionConfig {
            isolation: Isolation::ReadCommitted,
            mode: None,
        };
        assert_eq!(
            MARIADB.session_setup(config).unwrap(),
            ["SET SESSION tx_isolation = 'READ-COMMITTED'"]
        );
        let snapshot = SessionConfig {
            isolation: Isolation::Snapshot,
            mode: None,
        };
        assert!(MARIADB
            .session_setup(snapshot)
            .unwrap_err()
            .to_string()
            .contains("it supports"));
    }

    #[test]
    fn mariadb_classifies_errnos() {
        let p = MARIADB;
        assert_eq!(p.classify("1213", ""), ErrorClass::Deadlock);
        assert_eq!(p.classify("1205", ""), ErrorClass::LockTimeout);
        assert_eq!(p.classify("1062", ""), ErrorClass::Constraint);
        assert_eq!(p.classify("1064", ""), ErrorClass::Syntax);
        assert_eq!(p.classify("2013", ""), ErrorClass::Connection);
        assert_eq!(p.classify("1020", ""), ErrorClass::Serialization);
        assert_eq!(p.classify("1815", ""), ErrorClass::Internal);
        assert_eq!(p.classify("1366", ""), ErrorClass::Other);
        assert_eq!(p.error_effect(&deadlock(&p)), ErrorEffect::NeedsRollback);
        assert_eq!(p.in_transaction_query(), Some("SELECT @@in_transaction"));
    }

    #[test]
    fn mysql_uses_transaction_isolation_and_ends_deadlocked_transactions() {
        let config = SessionConfig {
            isolation: Isolation::Serializable,
            mode: None,
        };
        assert_eq!(
            MYSQL.session_setup(config).unwrap(),
            ["SET SESSION transaction_isolation = 'SERIALIZABLE'"]
        );
        assert_eq!(
            MYSQL.error_effect(&deadlock(&MYSQL)),
            ErrorEffect::RolledBack
        );
        assert_eq!(MYSQL.classify("1020", ""), ErrorClass::Other);
        let probe = MYSQL.lock_wait_probe("42");
        assert!(
            matches!(&probe[0], ProbeQuery::Count(q) if q.contains("PROCESSLIST_ID = 42") && q.contains("data_lock_waits"))
        );
    }
}
