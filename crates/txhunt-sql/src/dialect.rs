//! What differs between the SQL dialects txhunt renders: one small trait, one type per family
//! (no `if dialect == …` anywhere else).

use crate::ast::{Conflict, Lock, SqlType};
use txhunt_model::{SqlFamily, Value};

/// An optional SQL feature a generator may use only where the dialect has it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feature {
    /// A real BOOLEAN type.
    Boolean,
    /// `SELECT … FOR UPDATE`.
    ForUpdate,
    /// `SELECT … FOR SHARE` or `LOCK IN SHARE MODE`.
    ForShare,
    /// Insert that skips conflicting rows.
    InsertIgnore,
    /// Insert that updates the conflicting row.
    Upsert,
    /// Insert that replaces the conflicting row.
    Replace,
    /// CHECK constraints that are enforced.
    Check,
    /// Foreign keys that are enforced.
    ForeignKey,
}

/// A SQL dialect.
pub trait Dialect: Send + Sync {
    /// Its name: `sqlite`, `mysql`, `postgres`.
    fn name(&self) -> &'static str;
    /// Whether it has `feature`.
    fn supports(&self, feature: Feature) -> bool;
    /// The spelling of a column type.
    fn type_name(&self, ty: SqlType) -> String {
        match ty {
            SqlType::Int => "INT".into(),
            SqlType::BigInt => "BIGINT".into(),
            SqlType::Decimal { precision, scale } => format!("DECIMAL({precision}, {scale})"),
            SqlType::Double => self.double_name().into(),
            SqlType::Varchar(n) => format!("VARCHAR({n})"),
            SqlType::Text => "TEXT".into(),
            SqlType::Boolean => self.boolean_name().into(),
        }
    }
    /// The spelling of a double-precision float type.
    fn double_name(&self) -> &'static str {
        "DOUBLE"
    }
    /// The spelling of the boolean type (an integer type where there is none).
    fn boolean_name(&self) -> &'static str {
        "BOOLEAN"
    }
    /// The clause that locks the rows a SELECT reads.
    fn lock_clause(&self, lock: Lock) -> &'static str {
        match lock {
            Lock::Update => "FOR UPDATE",
            Lock::Share => "FOR SHARE",
        }
    }
    /// The words an INSERT with this conflict handling starts with.
    fn insert_verb(&self, conflict: &Conflict) -> &'static str;
    /// What follows the VALUES of an INSERT with this conflict handling, given the rendered
    /// `SET` list (empty when there is none).
    fn conflict_clause(&self, conflict: &Conflict, set: &str) -> String;
    /// The statement that stops the session checking foreign keys (a row's own state can
    /// then be written alone: no parent row needed, none of its children in the way).
    fn foreign_keys_off(&self) -> &'static str;
    /// A literal value; booleans are 1 and 0 where the dialect has no boolean type.
    fn literal(&self, value: &Value) -> String {
        match value {
            Value::Bool(b) if !self.supports(Feature::Boolean) => if *b { "1" } else { "0" }.into(),
            other => other.to_string(),
        }
    }
}

/// SQLite.
#[derive(Debug, Default, Clone, Copy)]
pub struct Sqlite;

/// MySQL, MariaDB, TiDB.
#[derive(Debug, Default, Clone, Copy)]
pub struct Mysql;

/// PostgreSQL, CockroachDB.
#[derive(Debug, Default, Clone, Copy)]
pub struct Postgres;

impl Dialect for Sqlite {
    fn name(&self) -> &'static str {
        "sqlite"
    }

    fn supports(&self, feature: Feature) -> bool {
        !matches!(
            feature,
            Feature::Boolean | Feature::ForUpdate | Feature::ForShare
        )
    }

    fn insert_verb(&self, conflict: &Conflict) -> &'static str {
        match conflict {
            Conflict::Ignore => "INSERT OR IGNORE INTO",
            Conflict::Replace => "INSERT OR REPLACE INTO",
            Conflict::Fail | Conflict::Update { .. } => "INSERT INTO",
        }
    }

    fn foreign_keys_off(&self) -> &'static str {
        "PRAGMA foreign_keys = OFF"
    }

    fn conflict_clause(&self, conflict: &Conflict, set: &str) -> String {
        match conflict {
            Conflict::Update { key, .. } => {
                format!(" ON CONFLICT ({}) DO UPDATE SET {set}", key.join(", "))
            }
            _ => String::new(),
        }
    }
}

impl Dialect for Mysql {
    fn name(&self) -> &'static str {
        "mysql"
    }

    fn boolean_name(&self) -> &'static str {
        "TINYINT"
    }

    fn supports(&self, feature: Feature) -> bool {
        feature != Feature::Boolean
    }

    /// `LOCK IN SHARE MODE`: MariaDB 10.11 has no `FOR SHARE`; MySQL 8 and TiDB accept both.
    fn lock_clause(&self, lock: Lock) -> &'static str {
        match lock {
            Lock::Update => "FOR UPDATE",
            Lock::Share => "LOCK IN SHARE MODE",
        }
    }

    fn insert_verb(&self, conflict: &Conflict) -> &'static str {
        match conflict {
            Conflict::Ignore => "INSERT IGNORE INTO",
            Conflict::Replace => "REPLACE INTO",
            Conflict::Fail | Conflict::Update { .. } => "INSERT INTO",
        }
    }

    fn foreign_keys_off(&self) -> &'static str {
        "SET foreign_key_checks = 0"
    }

    fn conflict_clause(&self, conflict: &Conflict, set: &str) -> String {
        match conflict {
            Conflict::Update { .. } => format!(" ON DUPLICATE KEY UPDATE {set}"),
            _ => String::new(),
        }
    }
}

impl Dialect for Postgres {
    fn name(&self) -> &'static str {
        "postgres"
    }

    fn double_name(&self) -> &'static str {
        "DOUBLE PRECISION"
    }

    fn supports(&self, feature: Feature) -> bool {
        feature != Feature::Replace
    }

    fn insert_verb(&self, _conflict: &Conflict) -> &'static str {
        "INSERT INTO"
    }

    /// Foreign keys are system triggers, which a replica does not fire (superusers only; for
    /// others the statement fails and foreign keys stay checked).
    fn foreign_keys_off(&self) -> &'static str {
        "SET session_replication_role = replica"
    }

    fn conflict_clause(&self, conflict: &Conflict, set: &str) -> String {
        match conflict {
            Conflict::Ignore => " ON CONFLICT DO NOTHING".into(),
            Conflict::Update { key, .. } => {
                format!(" ON CONFLICT ({}) DO UPDATE SET {set}", key.join(", "))
            }
            Conflict::Fail | Conflict::Replace => String::new(),
        }
    }
}

/// The dialect of a SQL family.
pub fn for_family(family: SqlFamily) -> &'static dyn Dialect {
    match family {
        SqlFamily::Sqlite => &Sqlite,
        SqlFamily::Mysql => &Mysql,
        SqlFamily::Postgres => &Postgres,
    }
}
