//! Read/write histories: which version of which row each statement read and wrote (paper 002
//! §3.2: item tracking and version-set tracking; Adya's reads and writes of object versions),
//! recorded by instrumentation, not inferred.
//!
//! Instrumentation gives every table three hidden columns ([`HIDDEN_COLUMNS`]): a row id set
//! once when the row is inserted (a row's identity, even when its primary key is updated), the
//! version (the statement that wrote it, [`Version`]) and the version it overwrote. So the
//! order of each row's versions follows from the writes themselves: a write names the version
//! it replaced.

use crate::Value;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The hidden row-id column: set once, when the row is inserted.
pub const ROW_ID: &str = "txh_rid";
/// The hidden version column: the [`Version`] of the statement that wrote the row last.
pub const VERSION: &str = "txh_ver";
/// The hidden column holding the version the last write overwrote.
pub const PREVIOUS: &str = "txh_prev";
/// Every hidden column, in the order instrumentation appends them to a table.
pub const HIDDEN_COLUMNS: [&str; 3] = [ROW_ID, VERSION, PREVIOUS];

/// Whether `column` is one of instrumentation's hidden columns (or a read's alias of one:
/// every name starting `txh_`).
pub fn is_hidden(column: &str) -> bool {
    column.to_ascii_lowercase().starts_with("txh_")
}

/// A version of a row: the statement that wrote it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Version {
    /// Written by the setup statement with this index.
    Init(usize),
    /// Written by the step with this index.
    Step(usize),
}

impl Version {
    /// The value the version column holds: `-(i + 1)` for setup statement `i`, `s + 1` for
    /// step `s` (zero is no version: a row instrumentation did not write).
    pub fn to_column(self) -> i64 {
        match self {
            Version::Init(i) => -(i as i64) - 1,
            Version::Step(s) => s as i64 + 1,
        }
    }

    /// The version a version column's value stands for (`None` for zero).
    pub fn from_column(value: i64) -> Option<Version> {
        match value {
            0 => None,
            v if v < 0 => Some(Version::Init((-v - 1) as usize)),
            v => Some(Version::Step((v - 1) as usize)),
        }
    }

    /// The version a value read from a version column stands for (`None` for NULL, zero or a
    /// value that is not an integer).
    pub fn from_value(value: &Value) -> Option<Version> {
        match value {
            Value::Int(v) => Version::from_column(*v),
            _ => None,
        }
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Version::Init(i) => write!(f, "init{}", i + 1),
            Version::Step(s) => write!(f, "#{}", s + 1),
        }
    }
}

/// A row: its table and the hidden row id instrumentation gave it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct RowId {
    /// The table, lower-case.
    pub table: String,
    /// The hidden row id.
    pub rid: i64,
}

impl fmt::Display for RowId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.table, self.rid)
    }
}

/// A row version a statement read: returned it, or matched it in its predicate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Read {
    /// The row.
    pub row: RowId,
    /// The version read (`None`: a row no instrumented statement wrote).
    pub version: Option<Version>,
}

/// What a write did to a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WriteKind {
    /// A new row.
    Insert,
    /// A new version of an existing row.
    Update,
    /// The row's removal.
    Delete,
}

/// A row a statement wrote.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Write {
    /// The row.
    pub row: RowId,
    /// Insert, update or delete.
    pub kind: WriteKind,
    /// The version it replaced (an update's or delete's; `None` for an insert, or a row no
    /// instrumented statement wrote).
    pub overwrote: Option<Version>,
    /// The row's user-visible columns after the write (before it, for a delete).
    pub image: Vec<Value>,
}

/// The rows and versions one statement read and wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Accesses {
    /// Row versions it read, in the order it returned them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reads: Vec<Read>,
    /// How many of `reads`, the first ones, its version-set reads found: rows it read but
    /// could not return itself (a subquery's, an aggregate's), read right after it in its
    /// transaction. Where each statement takes its own snapshot (READ COMMITTED), theirs is a
    /// later one than the statement's.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub version_set_reads: usize,
    /// Rows it wrote; their new version is the statement's own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub writes: Vec<Write>,
    /// The predicates it evaluated (its WHERE clause, per table), each with the rows it
    /// matched: the rows read or written above.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub predicates: Vec<Predicate>,
    /// What instrumentation could not track, and why (never silently missing).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub untracked: Vec<String>,
}

/// Whether `n` is 0 (a count not worth writing down).
fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// A predicate a statement evaluated over a table, and the row versions it matched.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Predicate {
    /// The table, lower-case.
    pub table: String,
    /// The condition as written (`None`: every row).
    pub condition: Option<String>,
    /// The row versions it matched.
    pub matched: Vec<Read>,
}

/// What instrumentation knows of a table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableMeta {
    /// The table, lower-case.
    pub name: String,
    /// Its user-visible columns, in order.
    pub columns: Vec<String>,
    /// Its primary-key columns (empty: none; the hidden row id identifies rows anyway).
    pub key: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_round_trip_through_the_column() {
        for v in [
            Version::Init(0),
            Version::Init(7),
            Version::Step(0),
            Version::Step(41),
        ] {
            assert_eq!(Version::from_column(v.to_column()), Some(v));
        }
        assert_eq!(Version::from_column(0), None);
        assert_eq!(Version::from_value(&Value::Null), None);
        assert_eq!(Version::Step(4).to_string(), "#5");
    }

    #[test]
    fn hidden_columns_are_told_by_name() {
        assert!(HIDDEN_COLUMNS.iter().all(|c| is_hidden(c)));
        assert!(is_hidden("TXH_V0"));
        assert!(!is_hidden("txn"));
    }
}
