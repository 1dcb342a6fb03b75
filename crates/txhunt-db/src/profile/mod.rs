//! What txhunt knows about each DBMS: its isolation levels and how its errors end transactions.

pub mod claim;
pub mod cockroach;
pub mod duckdb;
pub mod guarantee;
pub mod innodb;
pub mod postgres;
pub mod semantics;
pub mod sqlite;
pub mod tidb;
pub mod turso;

use crate::target::{SessionConfig, TargetError};
use claim::Claim;
use guarantee::Guarantee;
use semantics::Semantics;
use txhunt_model::{DbError, ErrorClass, Isolation, Mode, SqlFamily};

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
    /// The SQL family whose dialect it speaks.
    fn family(&self) -> SqlFamily;
    /// The concurrency-control semantics the DBMS claims ([`semantics`]): targets that claim
    /// the same (SQLite and Turso's normal mode, which claims SQLite's locking model; every
    /// PostgreSQL version) must wait, refuse and answer alike, except where a claim documents
    /// otherwise.
    fn semantics(&self) -> &'static Semantics;
    /// The names bug reports use for this DBMS and for those it shares its engine with,
    /// lowercase (MariaDB: `mariadb`, `mysql`, being MySQL's fork): a published PoC for one of
    /// them applies to it.
    fn reported_as(&self) -> &'static [&'static str];
    /// The isolation levels it offers, weakest first.
    fn isolation_levels(&self) -> &'static [Isolation];
    /// The level a session gets when none is asked for.
    fn default_isolation(&self) -> Isolation;
    /// The level this DBMS runs a case at when it is compared with a DBMS that runs the case
    /// at `asked`: `asked` where it offers that level; for SERIALIZABLE, the strongest level,
    /// its only level where it has one (DuckDB's and Turso MVCC's snapshot isolation, compared
    /// with SQLite's SERIALIZABLE: the differential oracle then tells a difference that
    /// snapshot isolation allows from one it does not, through each run's own guarantee);
    /// else `asked` (which it refuses). A weaker level is never paired with another: what
    /// READ UNCOMMITTED lets through says nothing about snapshot isolation.
    fn compared_level(&self, asked: Isolation) -> Isolation {
        match self.isolation_levels() {
            [only] if asked == Isolation::Serializable => *only,
            _ => asked,
        }
    }
    /// What `error`, raised inside an explicit transaction, does to that transaction.
    fn error_effect(&self, error: &DbError) -> ErrorEffect;
    /// Whether the driver reports lock waits through a [`crate::LockWaitHook`] as they happen
    /// (SQLite's busy handler); servers are asked through a probe instead.
    fn reports_lock_waits(&self) -> bool {
        false
    }

    /// Whether, at `level`, the locks a transaction's reads and writes (SELECT, UPDATE,
    /// DELETE) take are held until the transaction ends: a statement waiting on a lock can
    /// then resume only after another statement ended a transaction (transaction control,
    /// autocommit, DDL), failed, or inserted (InnoDB's AUTO-INC lock lasts a statement).
    /// The executor then asks the lock-wait probe about a waiting statement only after such a
    /// statement. False (the default) where unsure: every step is followed by a question.
    fn holds_locks_to_txn_end(&self, _level: Isolation) -> bool {
        false
    }

    /// Whether SERIALIZABLE makes reads wait for conflicting writers (two-phase locking), so
    /// that a transaction's reads see exactly the transactions that committed before it in
    /// commit order. False for snapshot-based SERIALIZABLE (SQLite's WAL readers, PostgreSQL's
    /// and CockroachDB's SSI), where a transaction reads its snapshot.
    fn serializable_reads_lock(&self) -> bool {
        false
    }

    /// What `isolation` promises: its Adya level and the phenomena the DBMS documents it lets
    /// through ([`guarantee`]).
    fn guarantee(&self, isolation: Isolation) -> &'static Guarantee;

    /// The behaviours the DBMS documents for `isolation` beyond what the level's name says
    /// ([`claim`]), most specific first. None by default: the level promises what its name says.
    fn claims(&self, _isolation: Isolation) -> &'static [Claim] {
        &[]
    }

    /// Whether SAVEPOINT outside a transaction opens one (SQLite); elsewhere it is an error
    /// (PostgreSQL) or discarded at once (MySQL, MariaDB).
    fn savepoint_opens_transaction(&self) -> bool {
        false
    }

    /// The concurrency-control modes the DBMS lets a session choose (empty: it has one).
    fn modes(&self) -> &'static [Mode] {
        &[]
    }

    /// The supported levels as text, for error messages.
    fn isolation_names(&self) -> String {
        self.isolation_levels()
            .iter()
            .map(|l| l.name())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The four ANSI levels, for DBMSs that offer them all.
pub(crate) const ANSI_LEVELS: &[Isolation] = &[
    Isolation::ReadUncommitted,
    Isolation::ReadCommitted,
    Isolation::RepeatableRead,
    Isolation::Serializable,
];

/// One question a lock-wait probe asks the server's monitor session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProbeQuery {
    /// A query answering one number (or boolean): the session waits when it is above zero.
    Count(String),
    /// `SHOW ENGINE INNODB STATUS`, read by [`innodb::waiting_in_innodb_status`] (MariaDB's
    /// `information_schema.INNODB_TRX` is a cached copy that polling keeps from refreshing).
    InnodbStatus,
    /// `SHOW PROCESSLIST`, the session's `State` read by [`innodb::waiting_for_lock_state`]
    /// (metadata, table and user locks). It answers what `information_schema.PROCESSLIST`
    /// does at a fifth of the cost: the server copies no table (measured on MariaDB 10.11,
    /// 3,000 questions each: 82 µs against 395, `SELECT 1` taking 59).
    ProcessList,
}

/// What txhunt needs to know about a client/server DBMS on top of [`Profile`]; its
/// [`Profile::family`] is MySQL or PostgreSQL.
pub trait ServerProfile: Profile {
    /// The statements that configure a fresh session (isolation level, mode, timeouts); never
    /// `SET GLOBAL`. Errors name what the DBMS does not offer.
    fn session_setup(&self, config: SessionConfig) -> Result<Vec<String>, TargetError>;
    /// Sorts an error, given the DBMS's code (errno or SQLSTATE) and message, into a class.
    fn classify(&self, code: &str, message: &str) -> ErrorClass;
    /// The questions whose answers say whether session `id` waits on a lock.
    fn lock_wait_probe(&self, id: &str) -> Vec<ProbeQuery>;
    /// A query answering whether the session has a transaction open, if the DBMS has one that
    /// also works right after an error.
    fn in_transaction_query(&self) -> Option<&'static str> {
        None
    }
    /// A query answering the session's own id, as the lock-wait probe names it.
    fn session_id_query(&self) -> &'static str {
        if self.family() == SqlFamily::Postgres {
            "SELECT pg_backend_pid()::text"
        } else {
            "SELECT CAST(CONNECTION_ID() AS CHAR)"
        }
    }
    /// `name` quoted as an identifier.
    fn quote_ident(&self, name: &str) -> String {
        if self.family() == SqlFamily::Mysql {
            format!("`{}`", name.replace('`', "``"))
        } else {
            format!("\"{}\"", name.replace('"', "\"\""))
        }
    }
}

/// Checks that `profile`'s DBMS offers `isolation`.
pub fn check_level(profile: &dyn Profile, isolation: Isolation) -> Result<(), TargetError> {
    if !profile.isolation_levels().contains(&isolation) {
        return Err(TargetError::Isolation {
            target: profile.name().into(),
            level: isolation,
            supported: profile.isolation_names(),
        });
    }
    Ok(())
}

/// Checks that `config` asks only for what `profile` offers.
pub fn check_config(profile: &dyn ServerProfile, config: SessionConfig) -> Result<(), TargetError> {
    check_level(profile, config.isolation)?;
    if let Some(mode) = config.mode {
        if !profile.modes().contains(&mode) && mode != Mode::Pessimistic {
            return Err(TargetError::Mode {
                target: profile.name().into(),
                mode,
            });
        }
    }
    Ok(())
}

/// The MySQL-family spelling of a level for `SET SESSION …isolation = '…'`.
pub(crate) fn mysql_level_name(isolation: Isolation) -> &'static str {
    match isolation {
        Isolation::ReadUncommitted => "READ-UNCOMMITTED",
        Isolation::ReadCommitted => "READ-COMMITTED",
        Isolation::RepeatableRead | Isolation::Snapshot => "REPEATABLE-READ",
        Isolation::Serializable => "SERIALIZABLE",
    }
}

/// Sorts a MySQL-protocol error number shared by MySQL, MariaDB and TiDB; `None` when the
/// number is not a common one.
pub(crate) fn classify_mysql_errno(errno: u32) -> Option<ErrorClass> {
    Some(match errno {
        1213 => ErrorClass::Deadlock,
        1205 => ErrorClass::LockTimeout,
        // duplicate key, foreign keys, NOT NULL, no default, CHECK (MySQL 3819, MariaDB 4025),
        // out of range, truncated
        1022 | 1048 | 1062 | 1169 | 1216 | 1217 | 1364 | 1451 | 1452 | 1557 | 1586 | 1761
        | 1762 | 3819 | 4025 | 1264 | 1406 => ErrorClass::Constraint,
        // parse error, unknown table/column/function, wrong arguments, not supported
        1054 | 1064 | 1046 | 1049 | 1051 | 1052 | 1060 | 1061 | 1066 | 1068 | 1072 | 1091
        | 1109 | 1110 | 1111 | 1115 | 1146 | 1149 | 1221 | 1222 | 1235 | 1241 | 1242 | 1247
        | 1248 | 1327 | 1349 | 1415 | 1582 | 1583 | 1630 => ErrorClass::Syntax,
        // lost connection, server gone, connection killed, shutdown
        2002 | 2003 | 2006 | 2013 | 1053 | 1927 => ErrorClass::Connection,
        // storage engine errors, index corrupt, out of memory, internal error
        1030 | 1034 | 1037 | 1041 | 1815 => ErrorClass::Internal,
        _ => return None,
    })
}
