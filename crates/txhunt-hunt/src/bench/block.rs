//! `txhunt bench block`: the same blocking scenarios with exact block detection and with the
//! papers' timeout, time per case for both and their ratio.

use super::{median_run, BenchError};
use serde::Serialize;
use std::fmt::Write;
use std::time::Duration;
use txhunt_db::Target;
use txhunt_exec::{BlockDetection, Executor};
use txhunt_model::scenario;
use txhunt_model::{Isolation, SqlFamily, TestCase};

/// The built-in blocking scenarios of each DBMS family.
const SQLITE: &[(&str, &str)] = &[
    (
        "writer-blocks-writer",
        include_str!("../../../../examples/01-writer-blocks-writer.sql"),
    ),
    (
        "rollback-undoes",
        include_str!("../../../../examples/03-rollback-undoes.sql"),
    ),
    (
        "autocommit-interleaved",
        include_str!("../../../../examples/05-autocommit-interleaved.sql"),
    ),
];
const MARIADB: &[(&str, &str)] = &[
    (
        "lost-update",
        include_str!("../../../../examples/mariadb/lost-update.sql"),
    ),
    (
        "deadlock",
        include_str!("../../../../examples/mariadb/deadlock.sql"),
    ),
    (
        "serializable-read-locks",
        include_str!("../../../../examples/mariadb/serializable-read-locks.sql"),
    ),
];
const POSTGRES: &[(&str, &str)] = &[
    (
        "lost-update-refused",
        include_str!("../../../../examples/postgres/lost-update-refused.sql"),
    ),
    (
        "read-committed-recheck",
        include_str!("../../../../examples/postgres/read-committed-recheck.sql"),
    ),
    (
        "deadlock",
        include_str!("../../../../examples/postgres/deadlock.sql"),
    ),
];

/// One case's timings.
#[derive(Debug, Serialize)]
pub struct CaseResult {
    /// The scenario.
    pub case: String,
    /// The level it ran at.
    pub isolation: Isolation,
    /// How many of its statements blocked.
    pub blocked_statements: usize,
    /// Median wall time with exact block detection.
    pub exact_ms: f64,
    /// Median wall time with the timeout.
    pub timeout_ms: f64,
    /// `timeout_ms / exact_ms`.
    pub ratio: f64,
    /// Whether both methods saw the same schedule.
    pub same_schedule: bool,
}

/// The whole run of `txhunt bench block`.
#[derive(Debug, Serialize)]
pub struct BlockReport {
    /// The target's name.
    pub target: String,
    /// The papers' timeout.
    pub timeout_ms: f64,
    /// Every case that blocked.
    pub cases: Vec<CaseResult>,
    /// Sum over the cases, exact detection.
    pub total_exact_ms: f64,
    /// Sum over the cases, timeout.
    pub total_timeout_ms: f64,
    /// `total_timeout_ms / total_exact_ms`.
    pub ratio: f64,
}

/// Runs the built-in blocking scenarios of `target`'s family with exact block detection and
/// with `timeout`, `repeat` times each, and reports the medians.
pub fn block(
    target: &dyn Target,
    timeout: Duration,
    repeat: usize,
) -> Result<BlockReport, BenchError> {
    let scenarios = match target.profile().family() {
        SqlFamily::Sqlite => SQLITE,
        SqlFamily::Mysql => MARIADB,
        SqlFamily::Postgres => POSTGRES,
    };
    let exact = Executor::default();
    let waiting = Executor {
        detection: BlockDetection::Timeout(timeout),
        ..Executor::default()
    };
    let mut cases = Vec::new();
    for (name, text) in scenarios {
        let case = scenario::parse(text, name)?;
        for level in levels(&case, target.profile().isolation_levels()) {
            let (exact_ms, exact_history) = median_run(&exact, target, &case, level, repeat)?;
            let blocked = exact_history.steps.iter().filter(|s| s.blocked).count();
            if blocked == 0 {
                continue; // only cases that block compare the two methods
            }
            let (timeout_ms, timeout_history) = median_run(&waiting, target, &case, level, repeat)?;
            cases.push(CaseResult {
                case: name.to_string(),
                isolation: level,
                blocked_statements: blocked,
                exact_ms,
                timeout_ms,
                ratio: timeout_ms / exact_ms,
                same_schedule: exact_history.schedule == timeout_history.schedule,
            });
        }
    }
    let total_exact_ms: f64 = cases.iter().map(|c| c.exact_ms).sum();
    let total_timeout_ms: f64 = cases.iter().map(|c| c.timeout_ms).sum();
    Ok(BlockReport {
        target: target.name(),
        timeout_ms: timeout.as_secs_f64() * 1000.0,
        ratio: total_timeout_ms / total_exact_ms,
        cases,
        total_exact_ms,
        total_timeout_ms,
    })
}

/// The levels of the scenario's header the target has (its levels if the header names none).
fn levels(case: &TestCase, supported: &[Isolation]) -> Vec<Isolation> {
    if case.header.isolation.is_empty() {
        return supported.to_vec();
    }
    case.header
        .isolation
        .iter()
        .copied()
        .filter(|l| supported.contains(l))
        .collect()
}

impl BlockReport {
    /// The report as a table for people.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "block detection on {}: exact probe vs {} ms timeout (median of runs)",
            self.target, self.timeout_ms
        );
        let _ = writeln!(
            out,
            "{:<26} {:<17} {:>7} {:>10} {:>12} {:>8}  same schedule",
            "case", "isolation", "blocked", "exact ms", "timeout ms", "ratio"
        );
        for c in &self.cases {
            let _ = writeln!(
                out,
                "{:<26} {:<17} {:>7} {:>10.1} {:>12.1} {:>8.1}  {}",
                c.case,
                c.isolation.name(),
                c.blocked_statements,
                c.exact_ms,
                c.timeout_ms,
                c.ratio,
                if c.same_schedule { "yes" } else { "NO" }
            );
        }
        let _ = writeln!(
            out,
            "total: exact {:.1} ms, timeout {:.1} ms, ratio {:.1}",
            self.total_exact_ms, self.total_timeout_ms, self.ratio
        );
        out
    }
}
