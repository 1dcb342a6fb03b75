//! Writing scenario files.

use crate::case::{Stmt, TestCase};
use crate::value::format_rows;
use std::fmt::Write;

/// Writes `case` in the scenario language; [`super::parse`] reads it back to the same case
/// (apart from line numbers) if the case has a statement.
pub fn print(case: &TestCase) -> String {
    let mut out = String::new();
    let h = &case.header;
    let mut header = |key: &str, value: &str| {
        let _ = writeln!(out, "-- {key}: {value}");
    };
    let fields = [
        ("id", &h.id),
        ("title", &h.title),
        ("link", &h.link),
        ("dbms", &h.dbms),
    ];
    for (key, value) in fields {
        if let Some(value) = value {
            header(key, value);
        }
    }
    if !h.isolation.is_empty() {
        let levels: Vec<&str> = h.isolation.iter().map(|l| l.name()).collect();
        header("isolation", &levels.join(", "));
    }
    if let Some(mode) = h.mode {
        header("mode", mode.name());
    }
    for (key, value) in &h.extra {
        header(key, value);
    }
    for stmt in &case.init {
        statement(&mut out, "/* init */ ", stmt);
    }
    for step in &case.steps {
        let prefix = if step.session.starts_with("conn_") {
            format!("{}> ", step.session)
        } else {
            format!("/* {} */ ", step.session)
        };
        statement(&mut out, &prefix, &step.stmt);
    }
    for table in &case.final_expect {
        let _ = writeln!(
            out,
            "-- expect final: {} = {}",
            table.table,
            format_rows(&table.rows)
        );
    }
    out
}

fn statement(out: &mut String, prefix: &str, stmt: &Stmt) {
    let _ = write!(out, "{prefix}{};", stmt.sql);
    if let Some(expect) = &stmt.expect {
        let _ = write!(out, "  -- expect: {expect}");
        if let Some(note) = &stmt.note {
            let _ = write!(out, " -- {note}");
        }
    } else if let Some(note) = &stmt.note {
        let _ = write!(out, "  -- {note}");
    }
    out.push('\n');
}
