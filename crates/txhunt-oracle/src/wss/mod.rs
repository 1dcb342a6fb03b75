//! Write-specific serializability (WriteCheck, paper 001).
//!
//! From the actual schedule txhunt builds the FCRFS serial schedules ([`schedule`]):
//! transaction-level (whole transactions in the order of their ending statements; aborted
//! ones run and rolled back) and statement-level (the committed transactions' statements as
//! autocommit statements; skipped when savepoints are used). Each runs on a fresh copy of the
//! initial database at the same isolation level. A violation is a different final state, a
//! write of a committed transaction that succeeded in one run and failed in the other, or, at
//! SERIALIZABLE, a read inside a committed explicit transaction that returned other rows.
//! Reads are compared only where SERIALIZABLE locks what it reads (InnoDB, inside explicit
//! transactions; its autocommit SELECTs are consistent reads): with snapshot-based
//! SERIALIZABLE (SQLite's WAL readers, PostgreSQL's and CockroachDB's SSI) a transaction reads
//! its snapshot, so the commit order does not bind its reads (paper 001 §5.4, footnote 4).
//!
//! Statements the concurrency control refused (deadlock, lock-timeout, serialization) are
//! left out of the serial schedules: they had no effect.
//!
//! A violation is then checked against the behaviours the DBMS documents for the level
//! ([`crate::permit`]): one whose evidence holds makes the findings *permissible* (kept,
//! counted, not bug candidates); otherwise they are bug candidates and say which behaviours
//! were ruled out and why. A serial schedule that could not run (the server was lost) leaves
//! the run *unjudged* by that schedule: no verdict, never a bug candidate.

mod committed_replay;
mod compare;
mod orders;
mod permit;
mod precondition;
mod scan_order;
pub mod schedule;
pub mod snapshot;
mod statement_order;
mod uncommitted_replay;

use crate::{Detail, Judged, Oracle, OracleId, SerialLevel, Unjudged};
use compare::compare;
use schedule::{fcrfs, stmt_serial, tx_serial, Unit};
use txhunt_exec::{Instrumented, Runner};
use txhunt_model::{History, Isolation, TestCase};

/// The WSS oracle.
#[derive(Debug, Default, Clone, Copy)]
pub struct Wss;

impl Oracle for Wss {
    fn id(&self) -> OracleId {
        OracleId::Wss
    }

    /// An instrumented run is compared with instrumented re-executions ([`Instrumented`]).
    fn check(&self, case: &TestCase, history: &History, runner: &dyn Runner) -> Judged {
        let instrumented = Instrumented(runner);
        let runner: &dyn Runner = if history.tables.is_empty() {
            runner
        } else {
            &instrumented
        };
        let mut judged = violations(case, history, runner);
        if judged.findings.is_empty() {
            return judged;
        }
        match permit::explain(case, history, runner) {
            Ok(permissible) => {
                for f in &mut judged.findings {
                    f.permissible = Some(permissible.clone());
                }
            }
            Err(ruled_out) => {
                for f in &mut judged.findings {
                    f.details.extend(
                        ruled_out
                            .iter()
                            .map(|why| Detail::RuledOut { why: why.clone() }),
                    );
                }
            }
        }
        judged
    }
}

/// The WSS violations of `history`, unclassified: empty when the history cannot be judged
/// (see [`fcrfs`]) or both serial schedules agree with it, in the FCRFS order or in another
/// order the observation cannot tell from it (transactions whose ending statements resumed
/// together: the order their results reached txhunt need not be the order the DBMS ran them
/// in, see [`orders::tie_orders`]).
fn violations(case: &TestCase, history: &History, runner: &dyn Runner) -> Judged {
    let Some(units) = fcrfs(case, history, savepoints_open_txns(runner)) else {
        return Judged::default();
    };
    let found = judge(case, history, &units, runner);
    if !found.findings.is_empty() {
        for alternative in orders::tie_orders(&units) {
            let other = judge(case, history, &alternative, runner);
            if other.findings.is_empty() && other.unjudged.is_empty() {
                return Judged::default();
            }
        }
    }
    found
}

/// The WSS violations of `history` against the serial schedules of `units` in this order.
fn judge(case: &TestCase, history: &History, units: &[Unit], runner: &dyn Runner) -> Judged {
    let Some(state) = &history.final_state else {
        return Judged::default();
    };
    let reads = compares_reads(history, runner);
    let serials = [
        (SerialLevel::Transaction, Some(tx_serial(case, units))),
        (SerialLevel::Statement, stmt_serial(case, units)),
    ];
    // The two serial schedules run at once, each in its own database: a server runs their
    // setup in parallel.
    let present: Vec<_> = (serials.iter())
        .filter_map(|(level, serial)| Some((*level, serial.as_ref()?)))
        .collect();
    let jobs = (present.iter())
        .map(|&(_, serial)| {
            Box::new(move || runner.run(&serial.case, history.isolation))
                as Box<dyn FnOnce() -> _ + Send + '_>
        })
        .collect();
    let ran = (present.into_iter()).zip(txhunt_exec::phase::concurrently(jobs));
    let mut judged = Judged::default();
    for ((level, serial), result) in ran {
        match result {
            Ok(serial_history) => judged.findings.extend(compare(
                level,
                case,
                history,
                state,
                units,
                serial,
                &serial_history,
                reads,
            )),
            Err(e) => judged.unjudged.push(Unjudged {
                oracle: OracleId::Wss,
                scope: None,
                reason: format!("the {} serial schedule could not run: {e}", level.name()),
            }),
        }
    }
    if history.isolation == Isolation::Serializable && !reads {
        let note = format!(
            "reads not compared: {}'s SERIALIZABLE reads a snapshot, so commit order does not bind its reads (paper 001 §5.4, footnote 4)",
            runner.profile().name()
        );
        for f in &mut judged.findings {
            f.details.push(Detail::Note { text: note.clone() });
        }
    }
    judged
}

/// Whether reads are compared: at SERIALIZABLE where it locks what it reads.
fn compares_reads(history: &History, runner: &dyn Runner) -> bool {
    history.isolation == Isolation::Serializable && runner.profile().serializable_reads_lock()
}

/// Whether a SAVEPOINT outside a transaction opens one on the runner's target.
fn savepoints_open_txns(runner: &dyn Runner) -> bool {
    runner.profile().savepoint_opens_transaction()
}

/// Why a piece of evidence does not hold, in one line: what the re-execution showed instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{why}")]
pub struct NotShown {
    /// What the re-execution showed instead.
    pub why: String,
    /// Set when the re-execution proves nothing either way: it took another path than the
    /// run (other transactions committed or aborted), so the behaviour could not be shown.
    pub inconclusive: bool,
}

impl NotShown {
    /// A re-execution that took another path than the run.
    pub fn inconclusive(why: String) -> Self {
        NotShown {
            why,
            inconclusive: true,
        }
    }
}

impl From<String> for NotShown {
    fn from(why: String) -> Self {
        NotShown {
            why,
            inconclusive: false,
        }
    }
}

impl From<&str> for NotShown {
    fn from(why: &str) -> Self {
        why.to_string().into()
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
