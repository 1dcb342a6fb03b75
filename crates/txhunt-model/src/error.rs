//! Errors a DBMS reports for a statement, with the class txhunt sorts them into.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// What kind of failure an error is, the same on every target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ErrorClass {
    /// The DBMS chose this transaction as a deadlock victim (or refused to wait because waiting
    /// could deadlock).
    Deadlock,
    /// A lock was not granted: the wait timed out, or the engine does not wait.
    LockTimeout,
    /// The transaction cannot be serialized (write conflict, stale snapshot, SSI failure).
    Serialization,
    /// A constraint was violated (primary key, unique, not null, check, foreign key).
    Constraint,
    /// The statement was rejected before it ran (syntax, unknown table or column, unsupported).
    Syntax,
    /// The transaction was already aborted, so the statement was refused.
    Aborted,
    /// The DBMS reports an internal error (assertion, corruption, "should not happen").
    Internal,
    /// The connection to the server was lost.
    Connection,
    /// Any other error.
    Other,
}

impl ErrorClass {
    /// Every class.
    pub const ALL: [ErrorClass; 9] = [
        ErrorClass::Deadlock,
        ErrorClass::LockTimeout,
        ErrorClass::Serialization,
        ErrorClass::Constraint,
        ErrorClass::Syntax,
        ErrorClass::Aborted,
        ErrorClass::Internal,
        ErrorClass::Connection,
        ErrorClass::Other,
    ];

    /// The name scenario files use: `deadlock`, `lock-timeout`, ….
    pub fn name(self) -> &'static str {
        match self {
            ErrorClass::Deadlock => "deadlock",
            ErrorClass::LockTimeout => "lock-timeout",
            ErrorClass::Serialization => "serialization",
            ErrorClass::Constraint => "constraint",
            ErrorClass::Syntax => "syntax",
            ErrorClass::Aborted => "aborted",
            ErrorClass::Internal => "internal",
            ErrorClass::Connection => "connection",
            ErrorClass::Other => "other",
        }
    }
}

impl fmt::Display for ErrorClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ErrorClass {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        ErrorClass::ALL
            .into_iter()
            .find(|class| class.name() == text)
            .ok_or_else(|| {
                format!(
                    "unknown error class '{text}'; accepted: {}",
                    ErrorClass::ALL.map(ErrorClass::name).join(", ")
                )
            })
    }
}

/// An error as the DBMS reported it: its class, and its code and message kept verbatim.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DbError {
    /// The class txhunt sorted it into.
    pub class: ErrorClass,
    /// The DBMS's own code (errno, SQLSTATE, extended result code), verbatim.
    pub code: Option<String>,
    /// The DBMS's message, verbatim.
    pub message: String,
}

impl fmt::Display for DbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error {}", self.class)?;
        if let Some(code) = &self.code {
            write!(f, " [{code}]")?;
        }
        write!(f, ": {}", self.message)
    }
}
