//! What one statement did.

use crate::error::DbError;
use crate::value::{format_rows, Row};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The result of executing one statement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Outcome {
    /// Succeeded without a result set or row count (BEGIN, COMMIT, DDL, …).
    Ok,
    /// A result set.
    Rows {
        /// Column names, as the engine reported them.
        columns: Vec<String>,
        /// The rows, in the order the engine returned them.
        rows: Vec<Row>,
    },
    /// A write and the number of rows it affected.
    Affected {
        /// Affected-row count as the engine reported it.
        count: u64,
    },
    /// The DBMS reported an error.
    Error(DbError),
    /// Neither completed nor waited on a lock within the statement timeout; it was cancelled.
    Hang {
        /// The timeout, in milliseconds.
        after_ms: u64,
    },
    /// Still waiting on a lock when nothing was left to run that could release it; cancelled.
    NeverCompleted,
    /// Not run at all, and why (for example: its session was torn down after a hang).
    NotRun {
        /// Why it was not run.
        reason: String,
    },
}

impl Outcome {
    /// The error, if the statement failed.
    pub fn error(&self) -> Option<&DbError> {
        match self {
            Outcome::Error(e) => Some(e),
            _ => None,
        }
    }

    /// Whether the statement ran to a successful end.
    pub fn succeeded(&self) -> bool {
        matches!(
            self,
            Outcome::Ok | Outcome::Rows { .. } | Outcome::Affected { .. }
        )
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Ok => f.write_str("ok"),
            Outcome::Rows { rows, .. } => write!(f, "rows {}", format_rows(rows)),
            Outcome::Affected { count } => write!(f, "affected {count}"),
            Outcome::Error(e) => write!(f, "{e}"),
            Outcome::Hang { after_ms } => {
                write!(f, "hang (no completion, no lock wait, {after_ms} ms)")
            }
            Outcome::NeverCompleted => {
                f.write_str("never completed (still waiting on a lock at the end)")
            }
            Outcome::NotRun { reason } => write!(f, "not run ({reason})"),
        }
    }
}
