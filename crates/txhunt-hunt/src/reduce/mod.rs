//! Automatic test-case reduction: a finding's case cut down to what the finding needs.
//!
//! Delta debugging ([`ddmin`]) runs over, in this order, the case's whole transactions, its
//! statements (a transaction's BEGIN, COMMIT and ROLLBACK stay as long as the transaction
//! does; they go with it), and its setup statements. A change is kept only when the smaller
//! case still gives **the same finding**: the same oracle and the same typed signature (e.g.
//! `wss` `tx-wss:final-state`), as a bug candidate (or permissible, when asked to keep those),
//! in each of [`REPLAYS`] runs in a row — txhunt's executor reproduces the schedule and its
//! blocking exactly, so a real finding replays. A run the infrastructure failed under counts
//! as not reproducing. A case whose finding does not replay every time to begin with is
//! `flaky`: its replay counts are reported and it is not reduced (it could be reduced into
//! another bug). Expectations and notes are dropped from the smaller cases (they described
//! the original run). The search stops at its time budget with the smallest case found.

mod ddmin;

pub use ddmin::ddmin;

use crate::judge::{Judge, Judged};
use serde::Serialize;
use std::time::{Duration, Instant};
use txhunt_db::Target;
use txhunt_model::{Isolation, StmtKind, TestCase};
use txhunt_oracle::OracleId;

/// How many runs in a row must give the finding.
pub const REPLAYS: usize = 3;

/// The finding a reduction keeps.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Goal {
    /// The oracle that made it.
    pub oracle: OracleId,
    /// Its typed signature, as printed (e.g. `tx-wss:final-state`).
    pub signature: String,
    /// Whether a permissible finding counts too (by default only a bug candidate does).
    pub permissible: bool,
}

impl Goal {
    /// Whether one judged execution of a case (its runs on every target) gives the finding.
    pub fn met_by(&self, runs: &[Judged]) -> bool {
        runs.iter().filter(|r| !r.is_suspect()).any(|run| {
            (run.findings.iter().chain(&run.compared)).any(|f| {
                f.oracle == self.oracle
                    && f.signature.to_string() == self.signature
                    && (f.is_candidate() || self.permissible)
            })
        })
    }
}

/// One tried change.
#[derive(Debug, Clone, Serialize)]
pub struct Attempt {
    /// What was cut: `transactions`, `statements` or `setup`.
    pub pass: &'static str,
    /// How many parts of that kind the tried case kept, of how many.
    pub kept: usize,
    /// Of how many.
    pub of: usize,
    /// Whether the finding survived it.
    pub reproduced: bool,
    /// How long its runs took.
    pub millis: u64,
}

/// A finding that did not replay every time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Flaky {
    /// Runs that gave the finding.
    pub reproduced: usize,
    /// Runs made.
    pub replays: usize,
}

/// What a reduction did.
#[derive(Debug, Clone, Serialize)]
pub struct Reduction {
    /// The smallest case found (the original when flaky).
    #[serde(skip)]
    pub case: TestCase,
    /// Statements (setup and steps) before and after.
    pub statements: (usize, usize),
    /// Transactions before and after.
    pub transactions: (usize, usize),
    /// Set when the original's finding did not replay every time: then nothing was reduced.
    pub flaky: Option<Flaky>,
    /// Whether the time budget ran out before the search ended.
    pub out_of_time: bool,
    /// Every change tried.
    pub log: Vec<Attempt>,
    /// Wall time.
    pub seconds: f64,
}

/// Why a case could not be reduced.
#[derive(Debug, thiserror::Error)]
pub enum ReduceError {
    /// The original case does not give the finding at all.
    #[error("the case does not give the finding {oracle} {signature} in {replays} runs")]
    NotReproduced {
        /// The finding's oracle.
        oracle: OracleId,
        /// Its signature.
        signature: String,
        /// Runs made.
        replays: usize,
    },
}

/// Reduces `case`, run at `level` on `targets` and judged by `judge`, to a smaller case that
/// still gives `goal`, within `budget`.
pub fn reduce(
    case: &TestCase,
    judge: &Judge,
    targets: &[&dyn Target],
    level: Isolation,
    goal: &Goal,
    budget: Duration,
) -> Result<Reduction, ReduceError> {
    let started = Instant::now();
    let deadline = started + budget;
    let gives = |c: &TestCase| {
        judge
            .judge(c, targets, level)
            .is_ok_and(|runs| goal.met_by(&runs))
    };
    let reproduced = (0..REPLAYS).filter(|_| gives(case)).count();
    let size = |c: &TestCase| (c.init.len() + c.steps.len(), c.txns().len());
    let before = size(case);
    let mut reduction = Reduction {
        case: case.clone(),
        statements: (before.0, before.0),
        transactions: (before.1, before.1),
        flaky: None,
        out_of_time: false,
        log: Vec::new(),
        seconds: 0.0,
    };
    if reproduced == 0 {
        return Err(ReduceError::NotReproduced {
            oracle: goal.oracle,
            signature: goal.signature.clone(),
            replays: REPLAYS,
        });
    }
    if reproduced < REPLAYS {
        reduction.flaky = Some(Flaky {
            reproduced,
            replays: REPLAYS,
        });
        reduction.seconds = started.elapsed().as_secs_f64();
        return Ok(reduction);
    }
    let mut current = plain(case);
    let give_up = || Instant::now() >= deadline;
    for pass in [Pass::Transactions, Pass::Statements, Pass::Setup] {
        let parts = pass.parts(&current);
        let mut log = Vec::new();
        let kept = ddmin(
            parts,
            &mut |keep: &[bool]| {
                let tried = Instant::now();
                let variant = pass.cut(&current, keep);
                let holds = (0..REPLAYS).all(|_| gives(&variant));
                log.push(Attempt {
                    pass: pass.name(),
                    kept: keep.iter().filter(|k| **k).count(),
                    of: parts,
                    reproduced: holds,
                    millis: tried.elapsed().as_millis() as u64,
                });
                holds
            },
            &give_up,
        );
        current = pass.cut(&current, &kept);
        reduction.log.extend(log);
    }
    let after = size(&current);
    reduction.statements.1 = after.0;
    reduction.transactions.1 = after.1;
    reduction.out_of_time = give_up();
    reduction.case = current;
    reduction.seconds = started.elapsed().as_secs_f64();
    Ok(reduction)
}

/// `case` without the expectations and notes of its original run.
fn plain(case: &TestCase) -> TestCase {
    let mut case = case.clone();
    case.final_expect.clear();
    for stmt in case
        .init
        .iter_mut()
        .chain(case.steps.iter_mut().map(|s| &mut s.stmt))
    {
        stmt.expect = None;
        stmt.note = None;
    }
    case
}

/// What one round of delta debugging cuts.
#[derive(Debug, Clone, Copy)]
enum Pass {
    /// Whole transactions (an autocommit statement is one).
    Transactions,
    /// Data statements; BEGIN, COMMIT and ROLLBACK stay.
    Statements,
    /// Setup statements.
    Setup,
}

impl Pass {
    fn name(self) -> &'static str {
        match self {
            Pass::Transactions => "transactions",
            Pass::Statements => "statements",
            Pass::Setup => "setup",
        }
    }

    /// How many parts of this kind `case` has.
    fn parts(self, case: &TestCase) -> usize {
        match self {
            Pass::Transactions => case.txns().len(),
            Pass::Statements => data_steps(case).len(),
            Pass::Setup => case.init.len(),
        }
    }

    /// `case` with only the parts `keep` marks.
    fn cut(self, case: &TestCase, keep: &[bool]) -> TestCase {
        let mut cut = case.clone();
        match self {
            Pass::Transactions => {
                let txns = case.txns();
                let kept: Vec<usize> = (txns.iter().zip(keep))
                    .filter(|(_, k)| **k)
                    .flat_map(|(t, _)| t.steps.iter().copied())
                    .collect();
                cut.steps = only(&case.steps, |i| kept.contains(&i));
            }
            Pass::Statements => {
                let data = data_steps(case);
                cut.steps = only(&case.steps, |i| {
                    data.iter().position(|&d| d == i).is_none_or(|k| keep[k])
                });
            }
            Pass::Setup => cut.init = only(&case.init, |i| keep[i]),
        }
        cut
    }
}

/// The steps of `case` that are not BEGIN, COMMIT or ROLLBACK.
fn data_steps(case: &TestCase) -> Vec<usize> {
    (0..case.steps.len())
        .filter(|&i| {
            !matches!(
                case.steps[i].stmt.kind(),
                StmtKind::Begin | StmtKind::Commit | StmtKind::Rollback
            )
        })
        .collect()
}

/// The items of `all` whose index `keep` accepts.
fn only<T: Clone>(all: &[T], keep: impl Fn(usize) -> bool) -> Vec<T> {
    (all.iter().enumerate())
        .filter(|(i, _)| keep(*i))
        .map(|(_, x)| x.clone())
        .collect()
}
