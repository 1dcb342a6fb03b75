//! From a stress anomaly to a deterministic case: the involved transactions' statements in the
//! order they were sent (a read's snapshot is taken when it starts) or, when that does not
//! give the anomaly every time, in the order they were answered (a statement that waited for
//! a lock took effect when it got it), on sessions of their own, over the run's tables and
//! indexes holding the rows they touched as they were when the first of them touched each (the
//! version it read or overwrote). The random workload's constraints (foreign keys, unique
//! columns, checks) may refuse those rows without the others: the derived case then fails its
//! setup, which counts as not reproducing, and the stress recipe stays what reproduces it.
//! The case is replayed with the exact protocol and judged by the DSG oracle: when every
//! replay gives the anomaly again it is reduced like any finding ([`crate::reduce`]); when
//! none does, the anomaly needs the timing of the stress run and the run's recipe (target,
//! workload, sessions, idle transactions, seed) with its history excerpt is what reproduces
//! it.

use super::{Candidate, Stress};
use crate::reduce::{reduce, Goal, ReduceError};
use crate::Judge;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use txhunt_db::Target;
use txhunt_exec::stress::StressRun;
use txhunt_exec::Executor;
use txhunt_model::access::{RowId, Version, WriteKind};
use txhunt_model::{scenario, Header, Step, Stmt, StmtKind, TestCase, Value};
use txhunt_oracle::dsg::Adya;
use txhunt_oracle::OracleId;

/// What replaying a candidate's deterministic case gave.
#[derive(Debug, Clone, Serialize)]
pub struct Replayed {
    /// `reproduces` (every replay gave the anomaly: then it was reduced), `flaky` (some
    /// did) or `timing-only` (none did, in either order: the stress recipe is what
    /// reproduces it).
    pub verdict: &'static str,
    /// The order of the statements in the case: `invoked` or `completed`.
    pub order: &'static str,
    /// The derived case, as a scenario.
    pub scenario: String,
    /// The reduced case, when it reproduces.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reduced: Option<String>,
    /// Statements before and after the reduction.
    pub statements: (usize, usize),
}

/// The order of a derived case's statements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// As they were sent: a read's snapshot is taken when it starts.
    Invoked,
    /// As they were answered: a statement that waited for a lock took effect when it got it.
    Completed,
}

impl Order {
    /// `invoked` or `completed`.
    pub fn name(self) -> &'static str {
        match self {
            Order::Invoked => "invoked",
            Order::Completed => "completed",
        }
    }
}

/// The deterministic case of the stress run's `steps` (0-based) and every step of their
/// transactions, in `order`.
pub fn case(stress: &Stress, run: &StressRun, steps: &[usize], order: Order) -> TestCase {
    let txns = run.case.txns();
    let of = run.case.txn_of_steps(&txns);
    let mut keep: Vec<usize> = steps
        .iter()
        .flat_map(|&s| txns[of[s]].steps.clone())
        .collect();
    keep.sort_unstable();
    keep.dedup();
    if order == Order::Completed {
        keep.sort_by_key(|&s| run.history.steps[s].completed);
    }
    let mut sessions: Vec<&str> = Vec::new();
    let steps: Vec<Step> = (keep.iter())
        .map(|&s| {
            let step = &run.case.steps[s];
            let n = match sessions.iter().position(|l| *l == step.session) {
                Some(n) => n,
                None => {
                    sessions.push(&step.session);
                    sessions.len() - 1
                }
            };
            Step {
                session: format!("t{}", n + 1),
                stmt: Stmt::new(step.stmt.sql.as_str()),
            }
        })
        .collect();
    // The setup's tables and indexes, then the rows as the steps first found them, table by
    // table in the order the setup created them (so that a row's parents come first).
    let mut init: Vec<Stmt> = (run.case.init.iter())
        .filter(|s| s.kind() != StmtKind::Insert)
        .cloned()
        .collect();
    let rows = first_images(run, &keep);
    for table in &run.history.tables {
        let values: Vec<String> = (rows.iter())
            .filter(|(row, _)| row.table == table.name)
            .map(|(_, image)| {
                let values: Vec<String> = image.iter().map(literal).collect();
                format!("({})", values.join(", "))
            })
            .collect();
        if !values.is_empty() {
            init.push(Stmt::new(format!(
                "INSERT INTO {} VALUES {}",
                table.name,
                values.join(", ")
            )));
        }
    }
    TestCase {
        header: Header {
            id: Some(format!("stress-{}-{}", stress.workload, stress.seed)),
            isolation: vec![stress.isolation],
            mode: stress.mode,
            ..Header::default()
        },
        init,
        steps,
        final_expect: Vec::new(),
    }
}

/// Per row the `steps` touched, its user-visible columns as the first of them found it (the
/// version it read or overwrote); rows the first touch inserted are left out.
fn first_images(run: &StressRun, steps: &[usize]) -> BTreeMap<RowId, Vec<Value>> {
    let mut first: HashMap<RowId, Option<Version>> = HashMap::new();
    for &s in steps {
        let Some(accesses) = &run.history.steps[s].accesses else {
            continue;
        };
        for read in &accesses.reads {
            first.entry(read.row.clone()).or_insert(read.version);
        }
        for write in &accesses.writes {
            let before = match write.kind {
                WriteKind::Insert => None,
                _ => write.overwrote,
            };
            first.entry(write.row.clone()).or_insert(before);
        }
    }
    let image = |row: &RowId, version: Version| {
        let writes = match version {
            Version::Init(i) => run.history.init_writes.get(i)?,
            Version::Step(s) => &run.history.steps.get(s)?.accesses.as_ref()?.writes,
        };
        (writes.iter().find(|w| w.row == *row)).map(|w| w.image.clone())
    };
    first
        .into_iter()
        .filter_map(|(row, version)| {
            let image = image(&row, version?)?;
            Some((row, image))
        })
        .collect()
}

/// A value as a SQL literal.
fn literal(value: &Value) -> String {
    match value {
        Value::Null => "NULL".into(),
        Value::Text(t) => format!("'{}'", t.replace('\'', "''")),
        other => other.to_string(),
    }
}

/// How a candidate's deterministic case is replayed: where, how, within what budget.
pub struct Replay<'a> {
    /// The stress hunt the run belongs to.
    pub stress: &'a Stress,
    /// How cases are executed (instrumented for the DSG oracle in any case).
    pub executor: &'a Executor,
    /// The target.
    pub target: &'a dyn Target,
    /// The time budget of each order's replays and reduction.
    pub budget: Duration,
    /// Set to stop (Ctrl-C).
    pub stop: &'a AtomicBool,
}

impl Replay<'_> {
    /// Replays the deterministic case of `candidate` (a DSG candidate of `run`; an allowed
    /// anomaly counts too when `permissible`) in each order until one gives it every time,
    /// and reduces that one.
    pub fn candidate(
        &self,
        run: &StressRun,
        candidate: &Candidate,
        permissible: bool,
    ) -> Option<Replayed> {
        let finding = candidate.finding.as_ref()?;
        let steps: Vec<usize> = candidate.excerpt.iter().map(|e| e.step - 1).collect();
        let judge = Judge {
            executor: Executor {
                instrument: true,
                ..*self.executor
            },
            oracles: vec![Box::new(Adya)],
        };
        let goal = Goal {
            oracle: OracleId::Dsg,
            signature: finding.signature.to_string(),
            permissible,
        };
        let size = |c: &TestCase| c.init.len() + c.steps.len();
        let mut last = None;
        for order in [Order::Invoked, Order::Completed] {
            let derived = case(self.stress, run, &steps, order);
            let scenario = scenario::print(&derived);
            let (verdict, reduced) = match reduce(
                &derived,
                &judge,
                &[self.target],
                self.stress.isolation,
                &goal,
                self.budget,
                self.stop,
            ) {
                Ok(r) if r.flaky.is_none() => ("reproduces", Some(r.case)),
                Ok(_) => ("flaky", None),
                Err(ReduceError::NotReproduced { .. }) => ("timing-only", None),
            };
            let replayed = Replayed {
                verdict,
                order: order.name(),
                scenario,
                statements: (
                    size(&derived),
                    reduced.as_ref().map_or(size(&derived), size),
                ),
                reduced: reduced.as_ref().map(scenario::print),
            };
            if replayed.reduced.is_some() {
                return Some(replayed);
            }
            // A flaky replay says more than one that never gave the anomaly.
            if last
                .as_ref()
                .is_none_or(|l: &Replayed| l.verdict == "timing-only")
            {
                last = Some(replayed);
            }
        }
        last
    }
}
