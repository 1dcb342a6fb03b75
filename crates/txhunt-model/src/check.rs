//! Checking a scenario's expectations against a history.

use crate::case::TestCase;
use crate::expect::Expect;
use crate::history::History;
use crate::outcome::Outcome;
use crate::value::{format_rows, same_bag};
use serde::{Deserialize, Serialize};

/// One checked expectation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Check {
    /// The scenario line it is about, when known.
    pub line: Option<u32>,
    /// What it is about: `t2: UPDATE t …`, `setup: CREATE …` or `final t`.
    pub subject: String,
    /// What the scenario expects.
    pub expected: String,
    /// What happened.
    pub observed: String,
    /// Whether it held.
    pub passed: bool,
}

/// Checks every expectation of `case` against `history`.
///
/// Setup statements must succeed unless they say otherwise; a statement's expectation is checked
/// against its outcome (and, for `blocked`, whether it blocked first); each `expect final` line
/// against the final state.
pub fn check(case: &TestCase, history: &History) -> Vec<Check> {
    let mut checks = Vec::new();
    for (stmt, outcome) in case.init.iter().zip(&history.init) {
        let expect = stmt.expect.clone().unwrap_or(Expect::Ok);
        let passed = expect.holds(false, outcome);
        if stmt.expect.is_some() || !passed {
            checks.push(Check {
                line: stmt.line,
                subject: format!("setup: {}", one_line(&stmt.sql)),
                expected: expect.to_string(),
                observed: outcome.to_string(),
                passed,
            });
        }
    }
    for (step, record) in case.steps.iter().zip(&history.steps) {
        let Some(expect) = &step.stmt.expect else {
            continue;
        };
        let observed = if record.blocked && !matches!(record.outcome, Outcome::NeverCompleted) {
            format!("blocked then {}", record.outcome)
        } else if record.blocked {
            format!("blocked, {}", record.outcome)
        } else {
            record.outcome.to_string()
        };
        checks.push(Check {
            line: step.stmt.line,
            subject: format!("{}: {}", step.session, one_line(&step.stmt.sql)),
            expected: expect.to_string(),
            observed,
            passed: expect.holds(record.blocked, &record.outcome),
        });
    }
    for table in &case.final_expect {
        let got = history
            .final_state
            .as_ref()
            .and_then(|s| s.table(&table.table));
        let (observed, passed) = match (got, &history.final_state_error) {
            (Some(rows), _) => (format_rows(rows), same_bag(&table.rows, rows)),
            (None, Some(e)) => (format!("final state unreadable: {e}"), false),
            (None, None) => ("no such table".to_string(), false),
        };
        checks.push(Check {
            line: table.line,
            subject: format!("final {}", table.table),
            expected: format_rows(&table.rows),
            observed,
            passed,
        });
    }
    checks
}

/// SQL on one line, whitespace collapsed.
pub fn one_line(sql: &str) -> String {
    sql.split_whitespace().collect::<Vec<_>>().join(" ")
}
