//! Expectations a scenario states about a statement or the final state, and how they are checked.

use crate::error::ErrorClass;
use crate::outcome::Outcome;
use crate::value::{format_rows, same_bag, Row};
use serde::{Deserialize, Serialize};
use std::fmt;

/// What a scenario expects of one statement's outcome (`-- expect: E`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Expect {
    /// Succeeds (any result).
    Ok,
    /// Returns exactly these rows, compared as a bag.
    Rows {
        /// The expected rows.
        rows: Vec<Row>,
    },
    /// Affects exactly this many rows.
    Affected {
        /// The expected count.
        count: u64,
    },
    /// Fails, with this class if one is given (`deadlock` is `error deadlock`).
    Error {
        /// The expected class, if any.
        class: Option<ErrorClass>,
    },
    /// Blocks when submitted; then, if given, its eventual outcome matches `then`.
    Blocked {
        /// The expected eventual outcome.
        then: Option<Box<Expect>>,
    },
}

impl Expect {
    /// Whether a statement that blocked first (`blocked`) and ended with `outcome` meets this
    /// expectation. Only `blocked` expectations look at blocking.
    pub fn holds(&self, blocked: bool, outcome: &Outcome) -> bool {
        match self {
            Expect::Ok => outcome.succeeded(),
            Expect::Rows { rows } => {
                matches!(outcome, Outcome::Rows { rows: got, .. } if same_bag(rows, got))
            }
            Expect::Affected { count } => {
                matches!(outcome, Outcome::Affected { count: got } if got == count)
            }
            Expect::Error { class } => match outcome.error() {
                Some(e) => class.is_none_or(|c| c == e.class),
                None => false,
            },
            Expect::Blocked { then } => {
                blocked && then.as_ref().is_none_or(|t| t.holds(blocked, outcome))
            }
        }
    }
}

impl fmt::Display for Expect {
    /// The scenario-file spelling, e.g. `blocked then error deadlock`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expect::Ok => f.write_str("ok"),
            Expect::Rows { rows } => write!(f, "rows {}", format_rows(rows)),
            Expect::Affected { count } => write!(f, "affected {count}"),
            Expect::Error { class: None } => f.write_str("error"),
            Expect::Error { class: Some(c) } => write!(f, "error {c}"),
            Expect::Blocked { then: None } => f.write_str("blocked"),
            Expect::Blocked { then: Some(t) } => write!(f, "blocked then {t}"),
        }
    }
}

/// What a scenario expects one table to hold at the end (`-- expect final: t = [...]`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableExpect {
    /// The table's name.
    pub table: String,
    /// Its expected rows, compared as a bag.
    pub rows: Vec<Row>,
    /// The line of the scenario file it came from, when parsed from one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::DbError;
    use crate::value::Value;

    fn deadlock() -> Outcome {
        Outcome::Error(DbError {
            class: ErrorClass::Deadlock,
            code: Some("1213".into()),
            message: "Deadlock found".into(),
        })
    }

    #[test]
    fn blocked_then_checks_both_parts() {
        let e = Expect::Blocked {
            then: Some(Box::new(Expect::Error {
                class: Some(ErrorClass::Deadlock),
            })),
        };
        assert!(e.holds(true, &deadlock()));
        assert!(!e.holds(false, &deadlock()));
        assert!(!e.holds(true, &Outcome::Ok));
    }

    #[test]
    fn rows_compare_as_bags() {
        let e = Expect::Rows {
            rows: vec![vec![Value::Int(2)], vec![Value::Int(1)]],
        };
        let got = Outcome::Rows {
            columns: vec!["a".into()],
            rows: vec![vec![Value::Int(1)], vec![Value::Int(2)]],
        };
        assert!(e.holds(false, &got));
        assert!(!Expect::Ok.holds(false, &deadlock()));
        assert!(!Expect::Error {
            class: Some(ErrorClass::Syntax)
        }
        .holds(false, &deadlock()));
    }
}
