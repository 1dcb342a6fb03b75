//! PostgreSQL's isolation tests: a specification `isolationtester` runs
//! (`src/test/isolation/README` and `specparse.y` in PostgreSQL's source describe it).
//!
//! - A global `setup` block holds the case's setup statements; a `teardown` block drops the
//!   tables it created, last created first.
//! - One `session` per scenario session, named by its label (`t1`), with one `step` per
//!   statement, named `t1_1`, `t1_2`, … in the session's order. A `BEGIN` or `START
//!   TRANSACTION` that names no level gets ` ISOLATION LEVEL <level>`; a session that runs
//!   statements outside a transaction block sets the level in its `setup` with `SET SESSION
//!   CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL <level>`; a session whose last transaction
//!   is left open ends it in its `teardown` with `ROLLBACK`, so that the global teardown does
//!   not wait for its locks.
//! - One `permutation` lists the steps in the order they were submitted. `isolationtester`
//!   finds out itself that a step waits (it prints `<waiting ...>`, then `<... completed>`
//!   after the step that released it) and prints every step's rows and errors; the expected
//!   output (`expected/NAME.out`) is what it prints on a run that reproduces the finding.
//! - A block of SQL ends at the first `}`: a statement containing one cannot be written.

use super::script::{Point, Script};
use super::{UpstreamError, UpstreamFormat};
use std::fmt::Write;
use txhunt_model::{SqlFamily, StmtKind};

/// `script` as an isolation test specification.
pub(super) fn spec(script: &Script<'_>) -> Result<String, UpstreamError> {
    let all_sql = script
        .init
        .iter()
        .chain(script.statements.iter().map(|s| &s.sql));
    if let Some(sql) = all_sql.into_iter().find(|sql| sql.contains('}')) {
        return Err(UpstreamError::Inexpressible {
            format: UpstreamFormat::PgIsolationSpec,
            reason: format!("a block of SQL ends at the first '}}', and `{sql}` has one"),
        });
    }
    let mut out = String::new();
    for line in &script.origin {
        let _ = writeln!(out, "# {line}");
    }
    if !script.init.is_empty() {
        out.push_str(&block("setup", &script.init));
    }
    let tables = script.created_tables(SqlFamily::Postgres);
    if !tables.is_empty() {
        let drops: Vec<String> = tables
            .iter()
            .rev()
            .map(|t| format!("DROP TABLE {t}"))
            .collect();
        out.push_str(&block("teardown", &drops));
    }
    let numbers = script.numbers_in_session();
    let name = |i: usize| {
        format!(
            "{}_{}",
            script.sessions[script.statements[i].session], numbers[i]
        )
    };
    for (session, label) in script.sessions.iter().enumerate() {
        let _ = writeln!(out, "\nsession {label}");
        if let (Some(level), true) = (script.isolation, script.autocommits[session]) {
            out.push_str(&format!(
                "setup {{ SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL {}; }}\n",
                level.sql()
            ));
        }
        for (i, statement) in script.statements.iter().enumerate() {
            if statement.session != session {
                continue;
            }
            let sql = match script.isolation {
                Some(level) if begins_without_level(statement.sql) => {
                    format!(
                        "{} ISOLATION LEVEL {}",
                        statement.sql.trim_end(),
                        level.sql()
                    )
                }
                _ => statement.sql.to_string(),
            };
            let _ = writeln!(out, "step {} {{ {sql}; }}", name(i));
        }
        if script.left_open[session] {
            out.push_str("teardown { ROLLBACK; }\n");
        }
    }
    let steps: Vec<String> = (script.points.iter())
        .filter_map(|point| match *point {
            Point::Submit(i) => Some(name(i)),
            Point::Complete(_) => None,
        })
        .collect();
    let _ = writeln!(out, "\npermutation {}", steps.join(" "));
    Ok(out)
}

/// A `setup` or `teardown` block of `statements`.
fn block(keyword: &str, statements: &[impl AsRef<str>]) -> String {
    let body: String = (statements.iter())
        .map(|sql| format!("  {};\n", sql.as_ref()))
        .collect();
    format!("\n{keyword}\n{{\n{body}}}\n")
}

/// Whether `sql` begins a transaction without naming its level: `BEGIN`, `BEGIN WORK`,
/// `BEGIN TRANSACTION`, `START TRANSACTION`.
fn begins_without_level(sql: &str) -> bool {
    if StmtKind::of(sql) != StmtKind::Begin {
        return false;
    }
    let words: Vec<String> = sql
        .split_whitespace()
        .map(str::to_ascii_lowercase)
        .collect();
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    matches!(
        words.as_slice(),
        ["begin"] | ["begin", "work" | "transaction"] | ["start", "transaction"]
    )
}
