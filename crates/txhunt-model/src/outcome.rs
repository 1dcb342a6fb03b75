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
    /// Did not complete within the statement timeout, and no lock wait of its was going to end;
    /// it was cancelled.
    Hang {
        /// The timeout, in milliseconds.
        after_ms: u64,
        /// It waited on a lock, in a cycle of waits the DBMS did not break: every transaction
        /// holding what the waiting statements need was itself waiting (a deadlock left
        /// undetected). Otherwise it neither ended nor waited on a lock.
        #[serde(default)]
        lock_cycle: bool,
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
            Outcome::Hang {
                after_ms,
                lock_cycle: false,
            } => write!(f, "hang (no completion, no lock wait, {after_ms} ms)"),
            Outcome::Hang {
                after_ms,
                lock_cycle: true,
            } => write!(
                f,
                "hang (waiting in a lock-wait cycle the DBMS did not break, {after_ms} ms)"
            ),
            Outcome::NeverCompleted => {
                f.write_str("never completed (still waiting on a lock at the end)")
            }
            Outcome::NotRun { reason } => write!(f, "not run ({reason})"),
        }
    }
}
