//! The documented behaviours that explain an SDG difference (issue: permissible vs bug), each
//! shown by evidence from the run or from one more sequential run:
//!
//! * **A statement that waited** for a lock, at a level whose DBMS documents that a waiting
//!   statement of its kind re-checks only the rows it waited for (PostgreSQL's READ COMMITTED:
//!   UPDATE, DELETE, locking reads, upserts) or reads their latest committed versions
//!   (InnoDB's semi-consistent read: UPDATE only), or reads its subqueries without locks
//!   before the wait (InnoDB's unlocked source reads: writes and locking reads with a
//!   subquery; at REPEATABLE READ, where writes lock their subqueries' rows, locking reads
//!   with a subquery still do not), or, taking no gap locks, misses what another transaction wrote into the range
//!   it had scanned before the wait (InnoDB's missing gap locks: locking reads; an UPDATE of
//!   a key is an insert there, so the row it moves back is missed and its old place is gone),
//!   may see two moments of the
//!   database, which no single place in a sequential order reproduces (placing it to explain
//!   the difference may close a cycle: that is reported so, not decycled away). The evidence
//!   is the wait: the differing statement, or one placed to explain an earlier difference,
//!   waited.
//! * **A write that read the newest committed versions** instead of its transaction's snapshot,
//!   at a level whose DBMS documents it (InnoDB at REPEATABLE READ: the paper's own Figure 1,
//!   MySQL bug #108528). The evidence is a replay: the same sequential order with the write
//!   moved after the statements of every transaction that committed before it completed in
//!   the run gives the write the outcome it had in the run.
//!
//! A difference neither rule shows is a bug candidate.

use super::graph::Edge;
use super::oracle::{NotJudged, Refined};
use super::sequential::Sequential;
use crate::{Excuse, Permissible};
use std::collections::HashSet;
use txhunt_db::profile::claim::{Behaviour, Claim};
use txhunt_exec::Runner;
use txhunt_model::{SqlFamily, StmtKind, TxnStatus};
use txhunt_sql::analysis::{locks_rows, subquery_tables};

/// The documented behaviour that explains the first difference, at `step`, of the sequential
/// run of `order`, if one does; `learnt` are the placements made to explain earlier
/// differences. An error when the replay that would show it could not run.
pub(super) fn excuse(
    run: &Refined,
    step: usize,
    order: &[usize],
    learnt: &[Edge],
    runner: &dyn Runner,
) -> Result<Option<Permissible>, NotJudged> {
    let claims = runner.profile().claims(run.history.isolation);
    let family = runner.profile().family();
    if let Some(found) = waited(run, step, learnt, claims, family) {
        return Ok(Some(found));
    }
    let Some(claim) = (claims.iter()).find(|c| c.behaviour == Behaviour::LatestCommittedWrites)
    else {
        return Ok(None);
    };
    if !writes_or_locks(run, step, family) {
        return Ok(None);
    }
    latest(run, step, order, runner).map(|shown| shown.map(|evidence| permit(claim, evidence)))
}

/// The wait that explains the difference at `step`, at a level whose DBMS documents that a
/// waiting statement of its kind sees the rows it waited for at a later moment than the rest:
/// PostgreSQL's READ COMMITTED re-check (UPDATE, DELETE, locking reads, INSERT … ON
/// CONFLICT), InnoDB's semi-consistent read (UPDATE only: a DELETE that waited is not
/// explained by it, MDEV-27992), and InnoDB's unlocked reads of the subqueries of a write or
/// locking read that waited (its subqueries read before the wait, its own rows after), and
/// InnoDB's missing gap locks for a locking read that waited (the range it scanned before the
/// wait is open to inserts, and a row whose key an UPDATE moved into it is missed).
pub(super) fn waited(
    run: &Refined,
    step: usize,
    learnt: &[Edge],
    claims: &[Claim],
    family: SqlFamily,
) -> Option<Permissible> {
    let covers = |claim: &Claim, s: usize| match claim.behaviour {
        Behaviour::SemiConsistentRead => run.case.steps[s].stmt.kind() == StmtKind::Update,
        Behaviour::StatementSnapshots => writes_or_locks(run, s, family),
        Behaviour::UnlockedSourceReads => {
            writes_or_locks(run, s, family)
                && !subquery_tables(&run.case.steps[s].stmt.sql, family).is_empty()
        }
        Behaviour::LockingReadSubqueries => {
            let stmt = &run.case.steps[s].stmt;
            stmt.kind() == StmtKind::Select
                && locks_rows(&stmt.sql, family)
                && !subquery_tables(&stmt.sql, family).is_empty()
        }
        // One with a subquery is left to unlocked source reads, which explain more.
        Behaviour::NoGapLocks => {
            let stmt = &run.case.steps[s].stmt;
            stmt.kind() == StmtKind::Select
                && locks_rows(&stmt.sql, family)
                && subquery_tables(&stmt.sql, family).is_empty()
        }
        _ => false,
    };
    let placed = learnt.iter().flat_map(|e| [e.from, e.to]);
    let (claim, waited) = std::iter::once(step)
        .chain(placed)
        .filter(|&s| run.history.steps[s].blocked)
        .find_map(|s| claims.iter().find(|c| covers(c, s)).map(|c| (c, s)))?;
    let evidence = format!(
        "step {} waited for a lock before it completed",
        run.origin[waited] + 1
    );
    Some(permit(claim, evidence))
}

/// The evidence that `step` read the newest committed versions: in `order` with `step` moved
/// after the statements of the transactions that had committed when it completed, it gives
/// what it gave in the run. `None` when no such statement follows it or the replay differs.
fn latest(
    run: &Refined,
    step: usize,
    order: &[usize],
    runner: &dyn Runner,
) -> Result<Option<String>, NotJudged> {
    let committed = committed_before(run, step);
    let at = (order.iter())
        .position(|&s| s == step)
        .expect("the differing statement is in the order");
    let moved: Vec<usize> = (order[at + 1..].iter().copied())
        .filter(|s| committed.contains(s))
        .collect();
    if moved.is_empty() {
        return Ok(None);
    }
    let mut replay: Vec<usize> = order[..at].to_vec();
    replay.extend(&moved);
    replay.push(step);
    replay.extend((order[at + 1..].iter()).filter(|s| !committed.contains(s)));
    let seq = Sequential::of(&run.case, &replay);
    let history = runner
        .run_instrumented(&seq.case, run.history.isolation)
        .map_err(|e| {
            NotJudged::infrastructure(format!(
                "the order that shows a write reading the newest committed versions could not run: {e}"
            ))
        })?;
    if seq
        .differing(&run.history, &history)
        .iter()
        .any(|&(s, _)| s == step)
    {
        return Ok(None);
    }
    let steps: Vec<String> = (moved.iter())
        .map(|&s| (run.origin[s] + 1).to_string())
        .collect();
    Ok(Some(format!(
        "moved after step{} {}, of the transactions that had committed when it completed, step {} gives what it gave in the run",
        if moved.len() == 1 { "" } else { "s" },
        steps.join(", "),
        run.origin[step] + 1
    )))
}

/// The statements of the transactions, other than `step`'s, that committed before `step`
/// completed in the run.
fn committed_before(run: &Refined, step: usize) -> HashSet<usize> {
    let done = run.history.steps[step].completed;
    (run.case.txns().iter())
        .filter(|t| !t.steps.contains(&step))
        .filter(|t| run.history.txns[t.id].status == TxnStatus::Committed)
        .filter(|t| {
            let last = *t.steps.last().expect("a transaction has statements");
            run.history.steps[last].completed < done
        })
        .flat_map(|t| t.steps.iter().copied())
        .collect()
}

/// Whether `step` writes or is a locking read: a statement that reads the rows it acts on
/// with locks, at their newest committed versions.
fn writes_or_locks(run: &Refined, step: usize, family: SqlFamily) -> bool {
    let stmt = &run.case.steps[step].stmt;
    match stmt.kind() {
        StmtKind::Select => locks_rows(&stmt.sql, family),
        kind => kind.is_write(),
    }
}

/// `claim` with `evidence`.
fn permit(claim: &Claim, evidence: String) -> Permissible {
    Permissible {
        excuse: Excuse::Permissible,
        behaviour: claim.behaviour.name().to_string(),
        reason: claim.reason.to_string(),
        source: claim.source.to_string(),
        evidence: vec![evidence],
        ruled_out: Vec::new(),
    }
}
