//! The documented design differences that explain a discrepancy between two targets (paper
//! 000 §6.1), each labelled *compatibility* with its reason and evidence instead of being a
//! bug candidate.

use super::{first_statement_difference, label, Category};
use crate::{Excuse, OracleId, Permissible, Run};
use txhunt_db::profile::claim::{Behaviour, Claim};
use txhunt_db::profile::semantics::Semantics;
use txhunt_model::{ErrorClass, History, Outcome, TestCase, TxnStatus};

/// The documented design difference that explains a discrepancy, if one does (paper 000
/// §6.1), decided from the two histories, and cited from both targets' documentation
/// ([`Semantics`]):
///
/// * both targets broke a deadlock, but by aborting different transactions: which
///   transaction a deadlock aborts is each engine's choice — between targets that claim
///   different semantics always, between targets that claim the same only where it documents
///   the choice as the engine's ([`Semantics::victim_unpredictable`]: PostgreSQL, InnoDB,
///   not SQLite, whose rule says which connection gets `SQLITE_BUSY`);
/// * one target rejected a statement as unsupported or a syntax error that the other ran,
///   and that is where the runs first differ: the dialects differ, which says nothing about
///   transactions;
/// * where the runs first differ, the transaction had met an error both targets raised alike
///   (same statement, same class, not a refusal by concurrency control), which aborted the
///   transaction on one target and failed only the statement on the other: each DBMS
///   documents what its errors do to a transaction (PostgreSQL and DuckDB abort it, SQLite
///   and InnoDB fail the statement);
/// * between targets that document different SQL dialects ([`Semantics::dialect`]; SQLite
///   and DuckDB, not SQLite and Turso, which claims SQLite's, where a difference without
///   concurrency is a bug of one of them): up to and including the statement where the runs
///   first differ (the end of the case when only the final states differ), the transactions
///   ran one after another on both targets (none began before the one before it ended, nothing
///   waited): with no concurrency there is no transaction behaviour to differ in, so the
///   engines differ in what the statement does (SQL semantics: DuckDB's `INSERT OR REPLACE`
///   keeps the columns it does not name, its unique and foreign-key checks refuse some
///   updates SQLite takes, …), which the differential oracle does not judge.
pub fn compatibility(case: &TestCase, a: Run<'_>, b: Run<'_>) -> Option<Permissible> {
    let ((la, a_history), (lb, b_history)) = ((a.label, a.history), (b.label, b.history));
    let victims = |h: &History| -> Vec<usize> {
        let txns = case.txns();
        h.steps
            .iter()
            .enumerate()
            .filter(|(_, r)| {
                r.outcome
                    .error()
                    .is_some_and(|e| e.class == ErrorClass::Deadlock)
            })
            .filter_map(|(s, _)| txns.iter().position(|t| t.steps.contains(&s)))
            .collect()
    };
    let (va, vb) = (victims(a_history), victims(b_history));
    let victim_chosen_freely = a.semantics != b.semantics || a.semantics.victim_unpredictable;
    if !va.is_empty() && !vb.is_empty() && va != vb && victim_chosen_freely {
        return Some(Permissible {
            excuse: Excuse::Compatibility,
            behaviour: "deadlock-victim".into(),
            reason:
                "both targets broke a deadlock, each aborting a transaction of its own choosing"
                    .into(),
            source: format!(
                "{}; paper 000 §6.1 (the aborted transaction is different when a deadlock occurs)",
                docs(&a, &b, |s| s.deadlocks)
            ),
            evidence: vec![format!(
                "{la} aborted {}; {lb} aborted {}",
                names(case, &va),
                names(case, &vb)
            )],
            ruled_out: Vec::new(),
        });
    }
    // Only a rejection where the runs first differ: one that follows another difference
    // (a savepoint gone because the transaction was refused earlier) is that one's effect.
    let first =
        first_statement_difference(case, (la, a_history), (lb, b_history)).map(|(_, s, _)| s);
    let unsupported = rejected(a_history, b_history)
        .map(|s| (a, s))
        .or_else(|| rejected(b_history, a_history).map(|s| (b, s)))
        .filter(|(_, s)| first == Some(*s));
    if let Some((aborting, e)) =
        first.and_then(|s| aborted_by_shared_error(case, a_history, b_history, s))
    {
        let aborting = if aborting { a } else { b };
        return Some(Permissible {
            excuse: Excuse::Compatibility,
            behaviour: "error-ends-transaction".into(),
            reason: "an error both targets raised aborted the transaction on one and failed only the statement on the other: each DBMS documents what its errors do to a transaction".into(),
            source: format!("{}; paper 000 §6.1", docs(&a, &b, |s| s.errors)),
            evidence: vec![format!(
                "{} aborted the transaction at {}: {}",
                aborting.label,
                label(case, e),
                aborting.history.steps[e].outcome
            )],
            ruled_out: Vec::new(),
        });
    }
    // Where the runs first differ: a statement, or (only the final states differ) the end.
    let upto = first.or(case.steps.len().checked_sub(1));
    let serial =
        upto.is_none_or(|s| ran_serially(case, a_history, s) && ran_serially(case, b_history, s));
    if serial && a.semantics.dialect != b.semantics.dialect {
        let evidence = match first {
            Some(s) => format!(
                "{}: {} on {la}, {} on {lb}",
                label(case, s),
                a_history.steps[s].outcome,
                b_history.steps[s].outcome
            ),
            None => "every statement answered alike; the final states differ after a case whose transactions ran one after another".into(),
        };
        return Some(Permissible {
            excuse: Excuse::Compatibility,
            behaviour: "sql-semantics".into(),
            reason: "the transactions ran one after another up to the difference: with no concurrency, the engines differ in what the statement does, not in how they isolate transactions".into(),
            source: format!(
                "{}: {}; {}: {}; paper 000 §6 (differences that are not transaction bugs)",
                a.label, a.semantics.dialect, b.label, b.semantics.dialect
            ),
            evidence: vec![evidence],
            ruled_out: Vec::new(),
        });
    }
    if let Some((rejecting, s)) = unsupported {
        return Some(Permissible {
            excuse: Excuse::Compatibility,
            behaviour: "unsupported-statement".into(),
            reason: "one target rejects a statement the other runs: their dialects differ".into(),
            source: format!(
                "{}: {}; paper 000 §5.4 / §6 (dialect differences are not transaction bugs)",
                rejecting.label, rejecting.semantics.dialect
            ),
            evidence: vec![format!(
                "{} rejected {}: {}",
                rejecting.label,
                label(case, s),
                rejecting.history.steps[s].outcome
            )],
            ruled_out: Vec::new(),
        });
    }
    None
}

/// Whether `h` ran the case's statements up to step `last` one transaction after another: in
/// submission order, each transaction's statements came together and it had ended before the
/// next one's first statement, and none of them waited.
fn ran_serially(case: &TestCase, h: &History, last: usize) -> bool {
    let txns = case.txns();
    let txn_of = |s: usize| txns.iter().position(|t| t.steps.contains(&s));
    let ends = |t: usize| txns[t].steps.iter().copied().max().unwrap_or(0);
    let mut current: Option<usize> = None;
    for s in 0..=last {
        if h.steps.get(s).is_none_or(|r| r.blocked) {
            return false;
        }
        let t = txn_of(s);
        if t != current {
            if let Some(previous) = current {
                if ends(previous) > s {
                    return false;
                }
            }
            current = t;
        }
    }
    true
}

/// Whether the transaction of step `first` was aborted, before it, on exactly one of the two
/// histories by an error that both raised at the same step with the same class (not a
/// refusal): `(true, step)` when on `a`, `(false, step)` when on `b`.
fn aborted_by_shared_error(
    case: &TestCase,
    a: &History,
    b: &History,
    first: usize,
) -> Option<(bool, usize)> {
    let t = case.txns().iter().position(|t| t.steps.contains(&first))?;
    let aborted_at = |h: &History| match h.txns.get(t).map(|r| &r.status) {
        Some(TxnStatus::Aborted { step, .. }) if *step < first => Some(*step),
        _ => None,
    };
    let (in_a, in_b) = (aborted_at(a), aborted_at(b));
    let (on_a, e) = match (in_a, in_b) {
        (Some(e), None) => (true, e),
        (None, Some(e)) => (false, e),
        _ => return None,
    };
    let class = |h: &History| h.steps.get(e)?.outcome.error().map(|err| err.class);
    let shared = class(a).is_some_and(|c| Some(c) == class(b) && !REFUSALS.contains(&c));
    shared.then_some((on_a, e))
}

/// The first step `h` rejected as unsupported or a syntax error that `other` did not.
fn rejected(h: &History, other: &History) -> Option<usize> {
    let syntax = |o: &Outcome| o.error().is_some_and(|e| e.class == ErrorClass::Syntax);
    (0..h.steps.len()).find(|&s| syntax(&h.steps[s].outcome) && !syntax(&other.steps[s].outcome))
}

/// One part of both targets' documentation: once when they claim the same semantics, else
/// each named by its target.
fn docs(a: &Run<'_>, b: &Run<'_>, part: fn(&Semantics) -> &'static str) -> String {
    if a.semantics == b.semantics {
        part(a.semantics).to_string()
    } else {
        format!(
            "{}: {}; {}: {}",
            a.label,
            part(a.semantics),
            b.label,
            part(b.semantics)
        )
    }
}

fn names(case: &TestCase, txns: &[usize]) -> String {
    let all = case.txns();
    txns.iter()
        .map(|&t| all[t].label.clone())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The error classes by which concurrency control refuses a statement: a deadlock victim, a
/// lock not granted, a transaction that cannot be serialized.
const REFUSALS: [ErrorClass; 3] = [
    ErrorClass::Deadlock,
    ErrorClass::LockTimeout,
    ErrorClass::Serialization,
];

/// The targets' concurrency control took different paths, and each path is one its isolation
/// level allows (paper 000 §6.1, "inconsistent lock mechanisms": 89% of DT²'s compatibility
/// issues). Decided when both runs were judged by the write-serializability oracle (with
/// whatever other single-target oracles ran) and neither has a bug candidate — each target's
/// run, on its own, commits what some serial order of its transactions would, or what a
/// documented behaviour of its level allows — and the first difference in schedule order is
/// one of concurrency control:
///
/// * between targets that claim different semantics ([`Run::semantics`]; DT²'s use:
///   `concurrency-control`): a statement that waited on one target and not on the other (or
///   the schedules took other steps from there), a deadlock on one only, or a statement one
///   target refused by a deadlock, lock or serialization error while the other ran it or
///   failed it otherwise;
/// * between any targets: a difference in a statement that, on either target, resumed
///   together with a statement of another transaction when one lock was released
///   (`waiter-order`: the waiters raced for it, and no engine here says which it lets go
///   first);
/// * between targets that claim the same semantics, only what the refusing target documents
///   (`needless-refusal`: one side refused the statement with a serialization failure where
///   the other ran it or failed it otherwise, and the refusing side claims such refusals —
///   PostgreSQL's SSI, where 15 finds a serialization conflict that 18 does not; SQLite's
///   stale-snapshot check, which counts a commit that changed no row). Any other difference
///   between targets that claim one semantics is a bug candidate (Turso refusing what SQLite
///   runs, for one).
///
/// Everything that follows from such a difference (other results, another final state) is
/// then labelled with it. A first difference in a query result, in an error that is not a
/// refusal (constraint, syntax, internal) or in the final state alone is never explained
/// this way: the same statement on the same data must give the same answer, and only the
/// differential oracle can see a deterministic statement bug of one target.
pub fn concurrency_control(case: &TestCase, a: Run<'_>, b: Run<'_>) -> Option<Permissible> {
    let valid = |run: &Run<'_>| {
        run.judged_by.contains(&OracleId::Wss) && run.findings.iter().all(|f| !f.is_candidate())
    };
    if !valid(&a) || !valid(&b) {
        return None;
    }
    let (category, step, _) =
        first_statement_difference(case, (a.label, a.history), (b.label, b.history))?;
    let (oa, ob) = (
        &a.history.steps[step].outcome,
        &b.history.steps[step].outcome,
    );
    let refused_with =
        |o: &Outcome, classes: &[ErrorClass]| o.error().is_some_and(|e| classes.contains(&e.class));
    let settled = |o: &Outcome| {
        !matches!(
            o,
            Outcome::Hang { .. } | Outcome::NeverCompleted | Outcome::NotRun { .. }
        )
    };
    // One side refused for concurrency's sake (by one of `classes`), the other ran the
    // statement or failed it too (maybe by another check first).
    let one_refused = |classes: &[ErrorClass]| {
        category == Category::Error
            && (refused_with(oa, classes) || refused_with(ob, classes))
            && settled(oa)
            && settled(ob)
    };
    let raced = |h: &History| {
        let txns = case.txns();
        let txn = |s: usize| txns.iter().position(|t| t.steps.contains(&s));
        h.steps[step].resumed_together.is_some_and(|group| {
            h.steps.iter().enumerate().any(|(other, r)| {
                other != step && r.resumed_together == Some(group) && txn(other) != txn(step)
            })
        })
    };
    let evidence = vec![format!(
        "{}: {}; {}: {}",
        a.label,
        verdict(a.findings),
        b.label,
        verdict(b.findings)
    )];
    let excuse = |behaviour: &str, reason: &str, source: String| Permissible {
        excuse: Excuse::Compatibility,
        behaviour: behaviour.into(),
        reason: reason.into(),
        source,
        evidence: evidence.clone(),
        ruled_out: Vec::new(),
    };
    if category != Category::FinalState && (raced(a.history) || raced(b.history)) {
        return Some(excuse(
            "waiter-order",
            "the statement resumed together with another transaction's when one lock was released; which waiter goes first is the engine's choice",
            format!(
                "txhunt's schedule (the waiters resumed at the same check); no order among waiters is documented in {}",
                docs(&a, &b, |s| s.concurrency_control)
            ),
        ));
    }
    if a.semantics == b.semantics {
        let serialization = [ErrorClass::Serialization];
        let refusing = match (
            refused_with(oa, &serialization),
            refused_with(ob, &serialization),
        ) {
            (true, false) => a.claims,
            (false, true) => b.claims,
            _ => return None,
        };
        let claim: &Claim = refusing
            .iter()
            .find(|c| c.behaviour == Behaviour::NeedlessRefusal)?;
        return one_refused(&serialization)
            .then(|| excuse(claim.behaviour.name(), claim.reason, claim.source.into()));
    }
    let explained = match category {
        Category::Blocking | Category::Deadlock => true,
        Category::Error => one_refused(&REFUSALS),
        Category::Result | Category::FinalState => false,
    };
    explained.then(|| {
        excuse(
            "concurrency-control",
            "the targets' concurrency control took different paths (which statement waits, which one is refused, which waiter goes first), and each run is one its isolation level allows",
            format!(
                "{}; paper 000 §6.1 (inconsistent lock mechanisms)",
                docs(&a, &b, |s| s.concurrency_control)
            ),
        )
    })
}
/// What the single-target oracles said about a run they found no bug candidate in.
fn verdict(findings: &[crate::Finding]) -> String {
    if findings.is_empty() {
        return "no finding by the single-target oracles (write-serializability among them)".into();
    }
    let mut behaviours: Vec<&str> = findings
        .iter()
        .filter_map(|f| f.permissible.as_ref().map(|p| p.behaviour.as_str()))
        .collect();
    behaviours.sort_unstable();
    behaviours.dedup();
    format!(
        "only permissible findings ({}) by the single-target oracles",
        behaviours.join(", ")
    )
}
