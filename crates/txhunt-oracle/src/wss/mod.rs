//! Write-specific serializability (WriteCheck, paper 001).
//!
//! From the actual schedule txhunt builds the FCRFS serial schedules ([`schedule`]):
//! transaction-level (whole transactions in the order of their ending statements; aborted
//! ones run and rolled back) and statement-level (the committed transactions' statements as
//! autocommit statements; skipped when savepoints are used). Each runs on a fresh copy of the
//! initial database at the same isolation level. A violation is a different final state, a
//! write of a committed transaction that succeeded in one run and failed in the other, or, at
//! SERIALIZABLE, a read of a committed transaction that returned other rows. Reads are
//! compared only where SERIALIZABLE locks what it reads (InnoDB): with snapshot-based
//! SERIALIZABLE (SQLite's WAL readers, PostgreSQL's and CockroachDB's SSI) a transaction reads
//! its snapshot, so the commit order does not bind its reads (paper 001 §5.4, footnote 4).
//!
//! Statements the concurrency control refused (deadlock, lock-timeout, serialization) are
//! left out of the serial schedules: they had no effect.

pub mod schedule;

use crate::{Finding, Oracle};
use schedule::{fcrfs, stmt_serial, tx_serial, Serial, Unit};
use txhunt_exec::Runner;
use txhunt_model::{value::format_rows, DbState, History, Isolation, Outcome, StmtKind, TestCase};

/// The oracle's name.
pub const NAME: &str = "wss";

/// The WSS oracle.
#[derive(Debug, Default, Clone, Copy)]
pub struct Wss;

impl Oracle for Wss {
    fn name(&self) -> &'static str {
        NAME
    }

    fn check(&self, case: &TestCase, history: &History, runner: &dyn Runner) -> Vec<Finding> {
        let Some(units) = fcrfs(case, history) else {
            return Vec::new();
        };
        let Some(state) = &history.final_state else {
            return Vec::new();
        };
        let reads = history.isolation == Isolation::Serializable
            && runner.profile().serializable_reads_lock();
        let mut findings = Vec::new();
        let serials = [
            ("tx-wss", Some(tx_serial(case, &units))),
            ("stmt-wss", stmt_serial(case, &units)),
        ];
        for (level_name, serial) in serials {
            let Some(serial) = serial else { continue };
            match runner.run(&serial.case, history.isolation) {
                Ok(serial_history) => findings.extend(compare(
                    level_name,
                    case,
                    history,
                    state,
                    &units,
                    &serial,
                    &serial_history,
                    reads,
                )),
                Err(e) => findings.push(not_run(level_name, &e.to_string())),
            }
        }
        findings
    }
}

/// A serial schedule that could not run is no verdict, but it is reported, not dropped.
fn not_run(level: &str, error: &str) -> Finding {
    Finding {
        oracle: NAME.into(),
        signature: format!("{level}:not-run"),
        summary: format!("the {level} serial schedule could not run: {error}"),
        steps: Vec::new(),
        details: Vec::new(),
    }
}

/// The serial order, for evidence: `t2 → t1 (rolled back) → t3`.
fn order(units: &[Unit]) -> String {
    units
        .iter()
        .map(|u| {
            if u.committed {
                u.label.clone()
            } else {
                format!("{} (rolled back)", u.label)
            }
        })
        .collect::<Vec<_>>()
        .join(" → ")
}

#[allow(clippy::too_many_arguments)]
fn compare(
    name: &str,
    case: &TestCase,
    history: &History,
    state: &DbState,
    units: &[Unit],
    serial: &Serial,
    serial_history: &History,
    compare_reads: bool,
) -> Vec<Finding> {
    let committed: Vec<usize> = units
        .iter()
        .filter(|u| u.committed)
        .flat_map(|u| u.steps.clone())
        .collect();
    let mut findings = Vec::new();
    let base = vec![format!("serial order ({name}, FCRFS): {}", order(units))];
    if let Some(serial_state) = &serial_history.final_state {
        if serial_state != state {
            let mut details = base.clone();
            details.extend(state_diff(state, serial_state));
            findings.push(Finding {
                oracle: NAME.into(),
                signature: format!("{name}:final-state"),
                summary: format!("{name}: the concurrent schedule's final state differs from the serial schedule's"),
                steps: Vec::new(),
                details,
            });
        }
    }
    let mut writes = Vec::new();
    let mut reads = Vec::new();
    for (record, origin) in serial_history.steps.iter().zip(&serial.origin) {
        let Some(s) = *origin else { continue };
        if !committed.contains(&s) {
            continue;
        }
        let concurrent = &history.steps[s].outcome;
        let kind = case.steps[s].stmt.kind();
        if kind.is_write() && concurrent.succeeded() != record.outcome.succeeded() {
            writes.push((s, concurrent.clone(), record.outcome.clone()));
        }
        if kind == StmtKind::Select && compare_reads && !same_rows(concurrent, &record.outcome) {
            reads.push((s, concurrent.clone(), record.outcome.clone()));
        }
    }
    for (what, diverging) in [("write", writes), ("read", reads)] {
        if diverging.is_empty() {
            continue;
        }
        let mut details = base.clone();
        details.extend(diverging.iter().map(|(s, c, r)| {
            format!(
                "{}: `{}`: concurrent {c}; serial {r}",
                case.steps[*s].session, case.steps[*s].stmt.sql
            )
        }));
        findings.push(Finding {
            oracle: NAME.into(),
            signature: format!("{name}:{what}"),
            summary: format!(
                "{name}: {} {what}{} of committed transactions differ from the serial schedule",
                diverging.len(),
                if diverging.len() == 1 { "" } else { "s" }
            ),
            steps: diverging.iter().map(|(s, _, _)| *s).collect(),
            details,
        });
    }
    findings
}

/// Whether two outcomes returned the same rows (as bags), or neither returned rows.
fn same_rows(a: &Outcome, b: &Outcome) -> bool {
    match (a, b) {
        (Outcome::Rows { rows: x, .. }, Outcome::Rows { rows: y, .. }) => {
            let (mut x, mut y) = (x.clone(), y.clone());
            x.sort();
            y.sort();
            x == y
        }
        (Outcome::Rows { .. }, _) | (_, Outcome::Rows { .. }) => false,
        _ => true,
    }
}

/// The rows each state has that the other lacks, per table.
fn state_diff(concurrent: &DbState, serial: &DbState) -> Vec<String> {
    let mut lines = Vec::new();
    let names: std::collections::BTreeSet<&str> = concurrent
        .tables()
        .chain(serial.tables())
        .map(|(n, _)| n)
        .collect();
    for name in names {
        let c = concurrent.table(name).unwrap_or(&[]);
        let s = serial.table(name).unwrap_or(&[]);
        if c == s {
            continue;
        }
        let only = |a: &[txhunt_model::Row], b: &[txhunt_model::Row]| {
            let mut rest = b.to_vec();
            a.iter()
                .filter(|row| match rest.iter().position(|r| r == *row) {
                    Some(i) => {
                        rest.swap_remove(i);
                        false
                    }
                    None => true,
                })
                .cloned()
                .collect::<Vec<_>>()
        };
        lines.push(format!("{name}: concurrent {}", format_rows(c)));
        lines.push(format!("{name}: serial     {}", format_rows(s)));
        lines.push(format!(
            "{name}: only concurrent {}; only serial {}",
            format_rows(&only(c, s)),
            format_rows(&only(s, c))
        ));
    }
    lines
}
