//! sqllogictest scripts, with the `connection NAME` records of sqllogictest-rs (its README
//! and `parser.rs` describe the format) for the sessions.
//!
//! - Records are separated by a blank line. The setup runs on the default connection; every
//!   other statement is preceded by `connection <label>` (the record applies to the next
//!   statement only, so each has its own).
//! - `statement ok` for a statement that succeeds without rows, `statement count N` for a
//!   write of N rows, `statement error <regex>` for one that fails (the observed message,
//!   escaped; any error when none was observed), and `query <types> rowsort` followed by
//!   `----` and one line per row, its values separated by spaces, for one that returns rows:
//!   `I` for an integer column, `R` for a decimal or float one, `T` for any other; `NULL`
//!   for NULL, `(empty)` for an empty string.
//! - **Blocking.** sqllogictest runs one statement at a time and waits for each, so a
//!   statement that waited on a lock cannot be submitted before the statement that released
//!   it. The script therefore runs the statements in the order they *completed*, which is the
//!   order their outcomes were produced in; a comment at its top says so and names the
//!   statements that waited. What a DBMS developer checks with it is that the outcomes hold
//!   in that order; the waiting itself is checked by the formats that express it
//!   (`pg-isolation-spec`, `mysqltest`).
//! - There is no isolation statement common to the DBMSs sqllogictest runs on: the level is
//!   named in a comment, for the harness to set.

use super::script::{Expected, Point, Script, Statement};
use super::{plain_text, UpstreamError};
use std::fmt::Write;
use txhunt_model::Value;

/// `script` as a sqllogictest script.
pub(super) fn script(script: &Script<'_>) -> Result<String, UpstreamError> {
    let mut out = String::new();
    for line in &script.origin {
        let _ = writeln!(out, "# {line}");
    }
    if let Some(level) = script.isolation {
        let _ = writeln!(
            out,
            "# Every connection but the default one runs at {}.",
            level.sql()
        );
    }
    if script.blocks() {
        out.push_str(
            "# The statements are in the order they completed: these waited on a lock, and\n\
             # stand where they completed, after the statement that released them:\n",
        );
        for statement in script.statements.iter().filter(|s| s.blocked) {
            let label = script.sessions[statement.session];
            let _ = writeln!(out, "#   {label}: {}", statement.sql);
        }
    }
    for sql in &script.init {
        let _ = write!(out, "\nstatement ok\n{sql}\n");
    }
    for point in &script.points {
        let i = match *point {
            Point::Submit(i) if !script.statements[i].blocked => i,
            Point::Complete(i) => i,
            Point::Submit(_) => continue,
        };
        let statement = &script.statements[i];
        let _ = write!(
            out,
            "\nconnection {}\n{}",
            script.sessions[statement.session],
            record(statement)
        );
    }
    Ok(out)
}

/// The record of one statement.
fn record(statement: &Statement<'_>) -> String {
    let sql = statement.sql;
    match statement.expected {
        Expected::Ok => format!("statement ok\n{sql}\n"),
        Expected::Affected(count) => format!("statement count {count}\n{sql}\n"),
        Expected::Error { observed, .. } => {
            let message = observed.map(|e| regex_of(&e.message)).unwrap_or_default();
            format!("statement error {message}\n{sql}\n").replace("error \n", "error\n")
        }
        Expected::Rows { columns, rows } => {
            let width = columns.map_or_else(|| rows.first().map_or(1, Vec::len), <[_]>::len);
            let types: String = (0..width).map(|c| type_letter(rows, c)).collect();
            let mut lines: Vec<Vec<String>> = (rows.iter())
                .map(|row| row.iter().map(text).collect())
                .collect();
            lines.sort_unstable();
            let body: String = lines.iter().map(|l| l.join(" ") + "\n").collect();
            format!("query {types} rowsort\n{sql}\n----\n{body}")
        }
    }
}

/// A value as a line of results spells it.
fn text(value: &Value) -> String {
    match plain_text(value) {
        None => "NULL".into(),
        Some(s) if s.is_empty() => "(empty)".into(),
        Some(s) => s,
    }
}

/// The type letter of column `c`, from its first non-NULL value.
fn type_letter(rows: &[Vec<Value>], c: usize) -> char {
    let first = rows
        .iter()
        .filter_map(|r| r.get(c))
        .find(|v| **v != Value::Null);
    match first {
        Some(Value::Int(_) | Value::Bool(_)) => 'I',
        Some(Value::Float(_) | Value::Decimal(_)) => 'R',
        _ => 'T',
    }
}

/// A regular expression matching `message`: its punctuation escaped, each run of whitespace
/// any run (the parser rejoins the record's words with single spaces).
fn regex_of(message: &str) -> String {
    let words: Vec<String> = (message.split_whitespace())
        .map(|word| {
            word.chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || !c.is_ascii() {
                        c.to_string()
                    } else {
                        format!("\\{c}")
                    }
                })
                .collect()
        })
        .collect();
    words.join("\\s+")
}
