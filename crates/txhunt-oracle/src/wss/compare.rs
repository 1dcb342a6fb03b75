//! Comparing a concurrent execution with a serial one: final states, the success of every
//! committed write, and (where the level orders them) the rows every committed read returned.

use super::order;
use super::schedule::{Serial, Unit};
use crate::evidence::state_diff;
use crate::{same_rows, Detail, Divergence, Finding, SerialLevel, Signature};
use txhunt_model::{DbState, History, StmtKind, TestCase};

/// The violations `serial_history` (a run of `serial`, the schedule `level` built from `units`)
/// shows against the concurrent `history` of `case`, which ended in `state`; empty when they
/// agree.
#[allow(clippy::too_many_arguments)]
pub fn compare(
    level: SerialLevel,
    case: &TestCase,
    history: &History,
    state: &DbState,
    units: &[Unit],
    serial: &Serial,
    serial_history: &History,
    compare_reads: bool,
) -> Vec<Finding> {
    // Only reads inside explicit transactions lock at SERIALIZABLE: an autocommit SELECT is a
    // consistent (non-locking) read of a snapshot taken when it starts, and a locking read
    // does not lock its subqueries (MySQL 8.0 Reference Manual §17.7.2.1 SERIALIZABLE,
    // §17.7.2.4), so commit order does not bind what it returns.
    let in_explicit: Vec<usize> = units
        .iter()
        .filter(|u| u.committed && u.explicit)
        .flat_map(|u| u.steps.clone())
        .collect();
    let committed: Vec<usize> = units
        .iter()
        .filter(|u| u.committed)
        .flat_map(|u| u.steps.clone())
        .collect();
    let name = level.name();
    let mut findings = Vec::new();
    let base = vec![Detail::SerialOrder {
        schedule: level,
        order: order(units),
    }];
    if let Some(serial_state) = &serial_history.final_state {
        if serial_state != state {
            let mut details = base.clone();
            details.extend(state_diff(state, serial_state));
            findings.push(Finding {
                details,
                ..Finding::new(
                    Signature::Wss(level, Divergence::FinalState),
                    format!("{name}: the concurrent schedule's final state differs from the serial schedule's"),
                    Vec::new(),
                )
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
        let locked_read = kind == StmtKind::Select && compare_reads && in_explicit.contains(&s);
        if locked_read && !same_rows(concurrent, &record.outcome) {
            reads.push((s, concurrent.clone(), record.outcome.clone()));
        }
    }
    for (what, diverging) in [(Divergence::Write, writes), (Divergence::Read, reads)] {
        if diverging.is_empty() {
            continue;
        }
        let mut details = base.clone();
        details.extend(diverging.iter().map(|(s, c, r)| Detail::Statement {
            session: case.steps[*s].session.clone(),
            sql: case.steps[*s].stmt.sql.clone(),
            concurrent: c.clone(),
            serial: r.clone(),
        }));
        let summary = format!(
            "{name}: {} {}{} of committed transactions differ from the serial schedule",
            diverging.len(),
            what.name(),
            if diverging.len() == 1 { "" } else { "s" }
        );
        let steps = diverging.iter().map(|(s, _, _)| *s).collect();
        findings.push(Finding {
            details,
            ..Finding::new(Signature::Wss(level, what), summary, steps)
        });
    }
    findings
}
