//! From a stress anomaly to a deterministic case: the involved transactions' statements in the
//! order they were invoked, on sessions of their own, over a table holding the rows they
//! touched as they were when the first of them touched each (the version it read or
//! overwrote). The case is replayed with the exact protocol and judged by the DSG oracle:
//! when every replay gives the anomaly again it is reduced like any finding
//! ([`crate::reduce`]); when none does, the anomaly needs the timing of the stress run and
//! the run's recipe (target, workload, sessions, seed) with its history excerpt is what
//! reproduces it.

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
use txhunt_model::{scenario, Header, Step, Stmt, TestCase, Value};
use txhunt_oracle::dsg::Adya;
use txhunt_oracle::OracleId;

/// What replaying a candidate's deterministic case gave.
#[derive(Debug, Clone, Serialize)]
pub struct Replayed {
    /// `reproduces` (every replay gave the anomaly: then it was reduced), `flaky` (some
    /// did) or `timing-only` (none did: the stress recipe is what reproduces it).
    pub verdict: &'static str,
    /// The derived case, as a scenario.
    pub scenario: String,
    /// The reduced case, when it reproduces.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reduced: Option<String>,
    /// Statements before and after the reduction.
    pub statements: (usize, usize),
}

/// The deterministic case of the stress run's `steps` (0-based) and every step of their
/// transactions.
pub fn case(stress: &Stress, run: &StressRun, steps: &[usize]) -> TestCase {
    let txns = run.case.txns();
    let of = run.case.txn_of_steps(&txns);
    let mut keep: Vec<usize> = steps
        .iter()
        .flat_map(|&s| txns[of[s]].steps.clone())
        .collect();
    keep.sort_unstable();
    keep.dedup();
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
    let mut init: Vec<Stmt> = stress.workload.setup(stress.keys)[..1]
        .iter()
        .map(Stmt::new)
        .collect();
    let rows = first_images(run, &keep);
    if !rows.is_empty() {
        let values: Vec<String> = rows
            .values()
            .map(|image| {
                format!(
                    "({})",
                    image.iter().map(literal).collect::<Vec<_>>().join(", ")
                )
            })
            .collect();
        init.push(Stmt::new(format!(
            "INSERT INTO {} VALUES {}",
            stress.workload.table(),
            values.join(", ")
        )));
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
/// version it read or overwrote), by row id; rows the first touch inserted are left out.
fn first_images(run: &StressRun, steps: &[usize]) -> BTreeMap<i64, Vec<Value>> {
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
        .filter_map(|(row, version)| Some((row.rid, image(&row, version?)?)))
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

/// Replays the deterministic case of `candidate` (a DSG candidate of `run`) on `target` and
/// reduces it when it reproduces, within `budget`.
pub fn replay(
    stress: &Stress,
    executor: &Executor,
    target: &dyn Target,
    run: &StressRun,
    candidate: &Candidate,
    budget: Duration,
    stop: &AtomicBool,
) -> Option<Replayed> {
    let finding = candidate.finding.as_ref()?;
    let steps: Vec<usize> = candidate.excerpt.iter().map(|e| e.step - 1).collect();
    let derived = case(stress, run, &steps);
    let judge = Judge {
        executor: Executor {
            instrument: true,
            ..*executor
        },
        oracles: vec![Box::new(Adya)],
    };
    let goal = Goal {
        oracle: OracleId::Dsg,
        signature: finding.signature.to_string(),
        permissible: false,
    };
    let size = |c: &TestCase| c.init.len() + c.steps.len();
    let scenario = scenario::print(&derived);
    let replayed = match reduce(
        &derived,
        &judge,
        &[target],
        stress.isolation,
        &goal,
        budget,
        stop,
    ) {
        Ok(r) if r.flaky.is_none() => Replayed {
            verdict: "reproduces",
            scenario,
            reduced: Some(scenario::print(&r.case)),
            statements: (size(&derived), size(&r.case)),
        },
        Ok(_) => Replayed {
            verdict: "flaky",
            scenario,
            reduced: None,
            statements: (size(&derived), size(&derived)),
        },
        Err(ReduceError::NotReproduced { .. }) => Replayed {
            verdict: "timing-only",
            scenario,
            reduced: None,
            statements: (size(&derived), size(&derived)),
        },
    };
    Some(replayed)
}
