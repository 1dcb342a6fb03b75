//! The scenario language: txhunt's human text form of a test case.
//!
//! ```sql
//! -- id: lost-update
//! -- isolation: repeatable-read, serializable
//! /* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);
//! /* init */ INSERT INTO t VALUES (1, 10);
//! /* t1 */ BEGIN;
//! /* t1 */ UPDATE t SET v = v + 1 WHERE k = 1;
//! /* t2 */ UPDATE t SET v = v + 2 WHERE k = 1;  -- expect: blocked then affected 1
//! /* t1 */ COMMIT;
//! -- expect final: t = [(1, 13)]
//! ```
//!
//! * Header lines `-- key: value` before the first statement: `id`, `title`, `link`,
//!   `isolation` (one level or a comma list), `dbms`, `mode`; other keys are kept as they are.
//! * Statements `/* init */ SQL;` (setup, run first, in order) and `/* tN */ SQL;` (session N,
//!   counted from 1 and written without leading zeros: `t0` and `t01` are errors); the ReplBug
//!   form `conn_N> SQL;` is accepted too (ReplBug counts from `conn_0`). File order is the
//!   submitted order; a scenario has at least one statement. A statement runs until its `;`
//!   (outside quotes and comments) and may span lines; another statement's tag before that `;`
//!   (a `/* init */` or `/* tN */` comment, or `conn_N>` first on a line) is an error, as the
//!   `;` is probably missing.
//! * A trailing `-- expect: E` states the statement's expected outcome, where E is `ok`,
//!   `rows [(1, 'a'), (2, NULL)]` (a bag), `affected N`, `error`, `error CLASS`, `deadlock`,
//!   `blocked`, or `blocked then E`. Any other trailing `-- text` is a note; `-- expect: E -- text`
//!   carries both.
//! * `-- expect final: t = [(1, 10)]` states a table's final rows (one line per table).
//! * Other comment lines are free comments.
//!
//! [`parse`] reads it (errors name `file:line:col`; a leading byte order mark is skipped),
//! [`print()`] writes it back; printing then parsing gives the same [`crate::TestCase`] back.

mod literal;
mod parse;
mod print;

pub use parse::parse;
pub use print::print;

use std::fmt;

/// A malformed scenario: where and what.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ParseError {
    /// The file name as given to [`parse`].
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column (in characters).
    pub col: u32,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.col, self.message
        )
    }
}
