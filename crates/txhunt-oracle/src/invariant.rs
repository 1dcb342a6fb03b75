//! The invariants of the stress workloads ([`Workload`]), judged from what the statements
//! returned and the final state alone: no instrumentation, so they cross-check the DSG oracle,
//! which judges the same runs from the recorded versions.
//!
//! * **register**: a committed transaction reads the initial value, a value it wrote itself,
//!   or a value another transaction wrote (every written value is unique); that writer must
//!   have committed (else G1a) and not have overwritten the value itself later (else G1b);
//! * **list-append**: a key's final list holds every committed append exactly once and no
//!   append of a transaction that did not commit; every list a committed transaction read is
//!   a prefix of the key's final list (else it read appends that never became durable, G1a,
//!   or in an order that never existed);
//! * **bank**: the final total is the initial one; a single read of every account by a
//!   committed transaction sees the initial total (else it saw part of a transfer, a
//!   G-single read skew, and within one statement: forbidden wherever each statement reads
//!   one snapshot, even at a level that allows G-single across a transaction's statements);
//! * **random**: none; the DSG oracle alone judges it.
//!
//! Each violation names the Adya phenomenon that stands for it where one does; the level's
//! [`Guarantee`] says whether that phenomenon is allowed. A violation without one (a value
//! nobody wrote, a lost or duplicated append, a changed total) is forbidden at every level.

use std::collections::{HashMap, HashSet};
use txhunt_db::profile::guarantee::{Allowance, Guarantee};
use txhunt_model::adya::Phenomenon;
use txhunt_model::{History, Outcome, Row, TestCase, Value};
use txhunt_sql::gen::workload::{Op, Workload, BANK_START};

/// A broken invariant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// Which invariant (`read-unwritten-value`, `lost-append`, `total-changed`, …).
    pub invariant: &'static str,
    /// What happened, in a sentence.
    pub text: String,
    /// The steps involved.
    pub steps: Vec<usize>,
    /// The Adya phenomenon it shows, where one stands for it.
    pub phenomenon: Option<Phenomenon>,
    /// Whether one plain SELECT's reads show it (a single read of every account): forbidden
    /// wherever each such statement reads one snapshot, whatever the phenomenon's allowance
    /// ([`Guarantee::statement_snapshot`]).
    pub one_statement: bool,
    /// What lets it through at the run's level, if anything does.
    pub allowed: Option<&'static Allowance>,
}

/// The violations of `workload`'s invariant in `history`, a stress run of `case`, judged
/// against `guarantee` (the run's level).
pub fn check(
    workload: Workload,
    case: &TestCase,
    history: &History,
    guarantee: &Guarantee,
) -> Vec<Violation> {
    let run = Ops::of(workload, case, history);
    let mut found = match workload {
        Workload::Register => register(&run),
        Workload::ListAppend => list_append(&run, history),
        Workload::Bank => bank(&run, history),
        // The DSG oracle is its only judge.
        Workload::Random => Vec::new(),
    };
    for v in &mut found {
        let statement_forbids = v.one_statement && guarantee.statement_snapshot;
        v.allowed = (v.phenomenon)
            .filter(|_| !statement_forbids)
            .and_then(|p| guarantee.allowance(p));
    }
    found
}

/// A run's statements as workload operations, with their transactions' fates.
struct Ops {
    /// Per step: its operation, if it did one and succeeded.
    op: Vec<Option<Op>>,
    /// Per step: its outcome's rows.
    rows: Vec<Vec<Row>>,
    /// Per step: its transaction.
    txn: Vec<usize>,
    /// Per transaction: whether it committed.
    committed: Vec<bool>,
    /// Per transaction: its label.
    labels: Vec<String>,
}

impl Ops {
    fn of(workload: Workload, case: &TestCase, history: &History) -> Ops {
        let txns = case.txns();
        let record = |s: usize| &history.steps[s].outcome;
        Ops {
            op: (case.steps.iter().enumerate())
                .map(|(s, step)| {
                    record(s)
                        .succeeded()
                        .then(|| workload.op(&step.stmt.sql))
                        .flatten()
                })
                .collect(),
            rows: (0..case.steps.len())
                .map(|s| match record(s) {
                    Outcome::Rows { rows, .. } => rows.clone(),
                    _ => Vec::new(),
                })
                .collect(),
            txn: case.txn_of_steps(&txns),
            committed: (0..txns.len())
                .map(|t| history.txns.get(t).is_some_and(|r| r.status.committed()))
                .collect(),
            labels: txns.into_iter().map(|t| t.label).collect(),
        }
    }

    /// The steps that did an operation, in order, with it.
    fn each(&self) -> impl Iterator<Item = (usize, &Op)> {
        (self.op.iter().enumerate()).filter_map(|(s, op)| Some((s, op.as_ref()?)))
    }

    fn committed_step(&self, s: usize) -> bool {
        self.committed[self.txn[s]]
    }

    /// `step N (label)`.
    fn at(&self, s: usize) -> String {
        format!("step {} ({})", s + 1, self.labels[self.txn[s]])
    }
}

fn violation(
    invariant: &'static str,
    text: String,
    steps: Vec<usize>,
    phenomenon: Option<Phenomenon>,
) -> Violation {
    Violation {
        invariant,
        text,
        steps,
        phenomenon,
        one_statement: false,
        allowed: None,
    }
}

fn int(v: &Value) -> Option<i64> {
    match v {
        Value::Int(i) => Some(*i),
        Value::Text(t) => t.parse().ok(),
        _ => None,
    }
}

fn register(run: &Ops) -> Vec<Violation> {
    // Each value's write; per key, the last write of each transaction.
    let mut writes: HashMap<i64, (usize, i64)> = HashMap::new();
    let mut last: HashMap<(usize, i64), usize> = HashMap::new();
    for (s, op) in run.each() {
        if let Op::Write { key, value } = *op {
            writes.insert(value, (s, key));
            last.insert((run.txn[s], key), s);
        }
    }
    let mut found = Vec::new();
    for (s, op) in run.each() {
        let Op::Read { key } = *op else { continue };
        if !run.committed_step(s) {
            continue;
        }
        for value in run.rows[s].iter().filter_map(|r| r.first().and_then(int)) {
            if value == 0 {
                continue;
            }
            let Some(&(w, written_to)) = writes.get(&value) else {
                found.push(violation(
                    "read-unwritten-value",
                    format!(
                        "{} read {value} from key {key}, which no statement wrote",
                        run.at(s)
                    ),
                    vec![s],
                    None,
                ));
                continue;
            };
            let writer = run.txn[w];
            if writer == run.txn[s] {
                continue;
            }
            if written_to != key {
                found.push(violation(
                    "read-unwritten-value",
                    format!(
                        "{} read {value} from key {key}; {} wrote it to key {written_to}",
                        run.at(s),
                        run.at(w)
                    ),
                    vec![w, s],
                    None,
                ));
            } else if !run.committed[writer] {
                found.push(violation(
                    "aborted-read",
                    format!(
                        "{} read {value} from key {key}, written by {}, which did not commit",
                        run.at(s),
                        run.at(w)
                    ),
                    vec![w, s],
                    Some(Phenomenon::G1a),
                ));
            } else if last.get(&(writer, key)) != Some(&w) {
                found.push(violation(
                    "intermediate-read",
                    format!(
                        "{} read {value} from key {key}, which {} overwrote later itself",
                        run.at(s),
                        run.at(w)
                    ),
                    vec![w, s],
                    Some(Phenomenon::G1b),
                ));
            }
        }
    }
    found
}

/// A list as stored: `,e1,e2,…`.
fn list(value: Option<&Value>) -> Vec<i64> {
    match value {
        Some(Value::Text(t)) => t.split(',').filter_map(|e| e.parse().ok()).collect(),
        _ => Vec::new(),
    }
}

fn list_append(run: &Ops, history: &History) -> Vec<Violation> {
    let mut found = Vec::new();
    let finals: HashMap<i64, Vec<i64>> = (history.final_state.as_ref())
        .and_then(|state| state.table(Workload::ListAppend.table()?))
        .unwrap_or_default()
        .iter()
        .filter_map(|row| Some((int(row.first()?)?, list(row.get(1)))))
        .collect();
    let empty = Vec::new();
    let final_of = |key: i64| finals.get(&key).unwrap_or(&empty);
    for (key, elements) in &finals {
        let mut seen = HashSet::new();
        if let Some(e) = elements.iter().find(|e| !seen.insert(**e)) {
            found.push(violation(
                "duplicated-append",
                format!("key {key}'s final list holds element {e} more than once"),
                Vec::new(),
                None,
            ));
        }
    }
    for (s, op) in run.each() {
        match *op {
            Op::Append { key, element } => {
                let durable = final_of(key).contains(&element);
                if run.committed_step(s) && !durable {
                    found.push(violation(
                        "lost-append",
                        format!("{} appended {element} to key {key} and committed, but the final list lacks it", run.at(s)),
                        vec![s],
                        None,
                    ));
                } else if !run.committed_step(s) && durable {
                    found.push(violation(
                        "aborted-append-kept",
                        format!("{} appended {element} to key {key} and did not commit, but the final list holds it", run.at(s)),
                        vec![s],
                        None,
                    ));
                }
            }
            Op::Read { key } if run.committed_step(s) => {
                let read = list(run.rows[s].first().and_then(|r| r.first()));
                let whole = final_of(key);
                if !whole.starts_with(&read) {
                    found.push(violation(
                        "read-not-a-prefix",
                        format!(
                            "{} read key {key} as {read:?}, which is not a prefix of its final list {whole:?}",
                            run.at(s)
                        ),
                        vec![s],
                        Some(Phenomenon::G1a),
                    ));
                }
            }
            _ => {}
        }
    }
    found
}

fn bank(run: &Ops, history: &History) -> Vec<Violation> {
    let mut found = Vec::new();
    let total = |rows: &[Row]| -> i64 { rows.iter().filter_map(|r| r.get(1).and_then(int)).sum() };
    let accounts = (history.final_state.as_ref())
        .and_then(|state| state.table(Workload::Bank.table()?))
        .unwrap_or_default();
    let expected = accounts.len() as i64 * BANK_START;
    let end = total(accounts);
    if end != expected {
        found.push(violation(
            "total-changed",
            format!("the accounts' final total is {end}, not {expected}"),
            Vec::new(),
            None,
        ));
    }
    for (s, op) in run.each() {
        if *op != Op::ReadAll || !run.committed_step(s) {
            continue;
        }
        if run.rows[s].len() != accounts.len() {
            found.push(violation(
                "read-missing-accounts",
                format!(
                    "{} read every account and saw {} of the {}",
                    run.at(s),
                    run.rows[s].len(),
                    accounts.len()
                ),
                vec![s],
                None,
            ));
            continue;
        }
        let seen = total(&run.rows[s]);
        if seen != expected {
            found.push(Violation {
                one_statement: true,
                ..violation(
                    "read-partial-transfer",
                    format!(
                        "{} read every account in one statement and saw a total of {seen}, not {expected}",
                        run.at(s)
                    ),
                    vec![s],
                    Some(Phenomenon::GSingle),
                )
            });
        }
    }
    found
}
