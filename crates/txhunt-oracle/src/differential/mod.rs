//! Differential testing (DT², paper 000 §4.3): the same case, submitted in the same order at
//! the same isolation level, on two targets of one family must behave the same.
//!
//! The histories are compared in the order things happened (each target's actual schedule),
//! stopping at the first difference: one statement blocked where the other did not (or the
//! schedules took different steps), a deadlock in one only, an error in one only or errors
//! of different classes (messages are never compared), different query results (as bags) or
//! affected-row counts. The final states are compared in any case. Values are compared as SQL
//! values ([`txhunt_model::Value::canonical`]): how each engine represents a number or a
//! boolean (SQLite's `0`, DuckDB's `FALSE`) is a type-system difference, not a transaction
//! bug.
//!
//! A difference that a documented design difference between the two targets explains
//! (paper 000 §6.1) is labelled *compatibility* with its reason instead of being a bug
//! candidate; see [`compatibility`].

mod compatibility;

pub use compatibility::{compatibility, concurrency_control};

use crate::{
    same_rows, Detail, Difference as Category, Excuse, Finding, Judged, Oracle, OracleId,
    Permissible, Run, Side, Signature,
};
use txhunt_model::state::canonical_rows;
use txhunt_model::{DbState, ErrorClass, Event, History, Outcome, TestCase};

/// The differential oracle: [`judge`] on every run after the first target's.
#[derive(Debug, Default, Clone, Copy)]
pub struct Differential;

impl Oracle for Differential {
    fn id(&self) -> OracleId {
        OracleId::Differential
    }

    fn compares_targets(&self) -> bool {
        true
    }

    fn compare(
        &self,
        case: &TestCase,
        first: Run<'_>,
        other: Run<'_>,
        rerun: &mut dyn FnMut(Side) -> Option<History>,
    ) -> Judged {
        Judged {
            findings: judge(case, first, other, rerun),
            unjudged: Vec::new(),
        }
    }
}

/// The differential oracle on one pair: the discrepancies between `a` (the first target) and
/// `b` ([`compare`]), those a design difference explains labelled *compatibility*
/// ([`compatibility`], [`concurrency_control`]), and the rest [`settle`]d by re-running the
/// targets through `rerun`.
pub fn judge(
    case: &TestCase,
    a: Run<'_>,
    b: Run<'_>,
    rerun: &mut dyn FnMut(Side) -> Option<History>,
) -> Vec<Finding> {
    let (pa, pb) = ((a.label, a.history), (b.label, b.history));
    let mut found = compare_pair(case, pa, pb);
    for explain in [compatibility, concurrency_control] {
        if !found.iter().any(Finding::is_candidate) {
            break;
        }
        if let Some(verdict) = explain(case, a, b) {
            for f in found.iter_mut().filter(|f| f.is_candidate()) {
                f.permissible = Some(verdict.clone());
            }
        }
    }
    settle(case, pa, pb, &mut found, rerun);
    found
}

/// The discrepancies between the first run and each other one (all of `case`, each on its
/// target, labelled e.g. `postgres 15.19`), at most two per pair: the first statement-level
/// one and the final state.
pub fn compare(case: &TestCase, runs: &[(&str, &History)]) -> Vec<Finding> {
    let Some((first, others)) = runs.split_first() else {
        return Vec::new();
    };
    others
        .iter()
        .flat_map(|other| compare_pair(case, *first, *other))
        .collect()
}

/// How often [`settle`] re-runs each target before it accepts a discrepancy.
pub const RERUNS: usize = 3;

/// Labels the bug candidates among `findings` (between `a` and `b`) *nondeterministic* when a
/// re-run of one target behaves exactly as the other target did (`rerun(Side::First)`
/// re-runs `a`'s target, `rerun(Side::Other)` `b`'s; each up to [`RERUNS`] times, in turn):
/// that target can do what the other did, so the difference says nothing about the targets
/// (e.g. statements whose order of resuming, after one lock was released, the DBMS decides).
pub fn settle(
    case: &TestCase,
    (la, a): (&str, &History),
    (lb, b): (&str, &History),
    findings: &mut [Finding],
    rerun: &mut dyn FnMut(Side) -> Option<History>,
) {
    if !findings.iter().any(Finding::is_candidate) {
        return;
    }
    for attempt in 1..=RERUNS {
        for side in [Side::First, Side::Other] {
            let Some(again) = rerun(side) else {
                continue;
            };
            let ((rerun_label, other_label), pair) = match side {
                Side::First => ((la, lb), compare_pair(case, (la, &again), (lb, b))),
                Side::Other => ((lb, la), compare_pair(case, (la, a), (lb, &again))),
            };
            if pair.iter().all(|f| !f.is_candidate()) {
                let verdict = Permissible {
                    excuse: Excuse::Nondeterministic,
                    behaviour: "nondeterministic".into(),
                    reason: format!(
                        "{rerun_label} itself ran the case the way {other_label} did when re-run"
                    ),
                    source: "re-execution of the same case, submitted in the same order".into(),
                    evidence: vec![format!(
                        "re-run {attempt} of {rerun_label} shows no discrepancy with {other_label}"
                    )],
                    ruled_out: Vec::new(),
                };
                for f in findings.iter_mut().filter(|f| f.is_candidate()) {
                    f.permissible = Some(verdict.clone());
                }
                return;
            }
        }
    }
}

/// The discrepancies between `a` and `b`.
fn compare_pair(
    case: &TestCase,
    (la, a): (&str, &History),
    (lb, b): (&str, &History),
) -> Vec<Finding> {
    let pair = format!("{la} vs {lb}");
    let report = |category: Category, steps, details| Finding {
        details,
        ..Finding::new(
            Signature::Differential(category),
            format!("{pair}: inconsistent {}", category.name().replace('-', " ")),
            steps,
        )
    };
    let mut findings = Vec::new();
    if let Some((category, step, details)) = first_statement_difference(case, (la, a), (lb, b)) {
        findings.push(report(category, vec![step], details));
    }
    let canonical = |h: &History| h.final_state.as_ref().map(DbState::canonical);
    if canonical(a) != canonical(b) {
        let show = |label: &str, h: &History| Detail::FinalState {
            target: label.to_string(),
            state: h.final_state.clone(),
        };
        let details = vec![show(la, a), show(lb, b)];
        findings.push(report(Category::FinalState, Vec::new(), details));
    }
    findings
}

/// The executed steps of a history in schedule order: `(step, blocked here)`. Statements
/// that resumed together ([`txhunt_model::StepRecord::resumed_together`]) have no known order
/// among themselves (their results reach txhunt's threads in any order), so each such run
/// is put in step order.
fn trace(history: &History) -> Vec<(usize, bool)> {
    let mut entries: Vec<(usize, bool)> = history
        .schedule
        .iter()
        .filter_map(|e| match e {
            Event::Blocked { step } => Some((*step, true)),
            Event::Completed { step } => Some((*step, false)),
            Event::Rollback { .. } => None,
        })
        .collect();
    let group = |&(step, blocked): &(usize, bool)| {
        (!blocked)
            .then(|| history.steps[step].resumed_together)
            .flatten()
    };
    let mut start = 0;
    while start < entries.len() {
        let mut end = start + 1;
        while group(&entries[start]).is_some()
            && end < entries.len()
            && group(&entries[end]) == group(&entries[start])
        {
            end += 1;
        }
        entries[start..end].sort();
        start = end;
    }
    entries
}

/// The first difference in schedule order: its category, the step, and what each target did.
pub(crate) fn first_statement_difference(
    case: &TestCase,
    (la, a): (&str, &History),
    (lb, b): (&str, &History),
) -> Option<(Category, usize, Vec<Detail>)> {
    let (ta, tb) = (trace(a), trace(b));
    let describe = |name: &str, h: &History, entry: Option<&(usize, bool)>| Detail::Step {
        target: name.to_string(),
        statement: entry.map(|(s, _)| label(case, *s)),
        outcome: entry
            .filter(|(_, blocked)| !blocked)
            .map(|(s, _)| h.steps[*s].outcome.clone()),
    };
    for i in 0..ta.len().max(tb.len()) {
        let (ea, eb) = (ta.get(i), tb.get(i));
        if ea != eb {
            let step = ea.or(eb).map_or(0, |(s, _)| *s);
            return Some((
                Category::Blocking,
                step,
                vec![describe(la, a, ea), describe(lb, b, eb)],
            ));
        }
        let &(step, blocked) = ea.expect("both present");
        if blocked {
            continue;
        }
        let (oa, ob) = (&a.steps[step].outcome, &b.steps[step].outcome);
        if let Some(category) = outcome_difference(oa, ob) {
            return Some((
                category,
                step,
                vec![describe(la, a, ea), describe(lb, b, eb)],
            ));
        }
    }
    None
}

/// How two outcomes of the same statement differ, if they do.
fn outcome_difference(a: &Outcome, b: &Outcome) -> Option<Category> {
    let deadlock = |o: &Outcome| o.error().is_some_and(|e| e.class == ErrorClass::Deadlock);
    if deadlock(a) != deadlock(b) {
        return Some(Category::Deadlock);
    }
    let class = |o: &Outcome| match o {
        Outcome::Error(e) => Some(format!("{:?}", e.class)),
        Outcome::Hang { .. } => Some("hang".into()),
        Outcome::NeverCompleted => Some("never-completed".into()),
        Outcome::NotRun { .. } => Some("not-run".into()),
        _ => None,
    };
    if class(a) != class(b) {
        return Some(Category::Error);
    }
    let same = match (a, b) {
        (Outcome::Affected { count: x }, Outcome::Affected { count: y }) => x == y,
        (Outcome::Rows { rows: x, .. }, Outcome::Rows { rows: y, .. }) => {
            let (mut x, mut y) = (canonical_rows(x), canonical_rows(y));
            x.sort();
            y.sort();
            x == y
        }
        _ => same_rows(a, b),
    };
    (!same).then_some(Category::Result)
}

pub(crate) fn label(case: &TestCase, step: usize) -> String {
    let s = &case.steps[step];
    format!("{} `{}`", s.session, s.stmt.sql)
}

#[cfg(test)]
mod tests {
    use super::*;
    use txhunt_model::{scenario, Isolation, StepRecord};

    /// A history of two statements that both blocked and completed in `order`.
    fn history(order: [usize; 2], together: Option<usize>) -> History {
        let record = |_| StepRecord {
            submitted: Some(0),
            completed: Some(0),
            blocked: true,
            outcome: Outcome::Affected { count: 1 },
            resumed_together: together,
            accesses: None,
        };
        History {
            target: "t".into(),
            isolation: Isolation::Serializable,
            init: Vec::new(),
            init_writes: Vec::new(),
            steps: vec![record(0), record(1)],
            schedule: vec![
                Event::Blocked { step: 0 },
                Event::Blocked { step: 1 },
                Event::Completed { step: order[0] },
                Event::Completed { step: order[1] },
            ],
            txns: Vec::new(),
            final_state: None,
            final_state_error: None,
            tables: Vec::new(),
        }
    }

    #[test]
    fn statements_that_resumed_together_are_compared_in_any_order() {
        let case = scenario::parse(
            "/* t1 */ UPDATE t SET v = 1;\n/* t2 */ UPDATE t SET v = 2;\n",
            "x.sql",
        )
        .unwrap();
        let (a, b) = (history([0, 1], Some(0)), history([1, 0], Some(0)));
        assert!(compare(&case, &[("a", &a), ("b", &b)]).is_empty());
        let (a, b) = (history([0, 1], None), history([1, 0], None));
        let found = compare(&case, &[("a", &a), ("b", &b)]);
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].signature,
            Signature::Differential(Category::Blocking)
        );
    }
}
