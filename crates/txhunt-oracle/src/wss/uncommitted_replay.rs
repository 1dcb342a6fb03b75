//! READ UNCOMMITTED decided by replay, statement by statement
//! ([`Evidence::UncommittedReplay`]): InnoDB's READ UNCOMMITTED reads the newest version of
//! every row, committed or not, and writes lock rows until their transaction ends (MariaDB
//! documentation, SET TRANSACTION: "READ UNCOMMITTED … a possible earlier version of a row
//! might be used"; MySQL 8.0 §17.7.2.1). Such a run is shown by replay: every statement, run
//! alone on the state all statements that completed before it left (committed or not),
//! answers as it did concurrently, and that state, with each rolled-back or aborted
//! transaction's changes taken back where it ended, is the final state.
//!
//! A statement is placed where it completed: a statement that waited for a lock read the rows
//! it waited for after its blocker ended. Where that answers otherwise, it read some rows
//! before the wait and others after (two moments): where its scan's order is known, it is
//! replayed on the rows its scan passed before the wait as they were when it started and the
//! rest as they were when it completed ([`scan_states`]); otherwise the run is not shown. A
//! statement the DBMS failed with a deadlock or lock timeout changed nothing and is not
//! replayed (its transaction's fate is part of the run's path). SAVEPOINT and RELEASE change no
//! row and are not replayed; a ROLLBACK TO takes back, where it completed, the changes its
//! transaction made since the savepoint (a failed one changed nothing). InnoDB keeps the row
//! locks taken since the savepoint; the replay, which places statements by when they
//! completed, needs no locks.
//!
//! [`Evidence::UncommittedReplay`]: crate::permit::Evidence::UncommittedReplay

use super::committed_replay::{
    kept_at, may_move_rows, only_deletes_and_inserts, savepoint_name, SCANNED,
};
use super::scan_order::scan_states;
use super::schedule::Unit;
use super::snapshot::{apply, same_outcome, Replays};
use super::NotShown;
use std::collections::{BTreeMap, HashMap};
use txhunt_exec::Runner;
use txhunt_model::{DbState, ErrorClass, Event, History, Outcome, StmtKind, TestCase};

/// `Ok` saying how `history`'s transactions (`units`) form a READ UNCOMMITTED execution at
/// the statement level, or `Err` with the first thing that shows they do not.
pub fn uncommitted_replay(
    case: &TestCase,
    history: &History,
    units: &[Unit],
    runner: &dyn Runner,
) -> Result<String, NotShown> {
    let state = history.final_state.as_ref().ok_or("no final state")?;
    let txns = case.txns();
    let unit_of = |step: usize| units.iter().position(|u| u.steps.contains(&step));
    // Per unit, where it ended uncommitted: the last event of its transaction.
    let mut ends: Vec<Option<usize>> = vec![None; units.len()];
    for (u, unit) in units.iter().enumerate().filter(|(_, u)| !u.committed) {
        let Some(t) =
            (unit.steps.first()).and_then(|s| txns.iter().position(|t| t.steps.contains(s)))
        else {
            continue;
        };
        ends[u] = (history.schedule.iter()).rposition(|e| match e {
            Event::Completed { step } | Event::Blocked { step } => txns[t].steps.contains(step),
            Event::Rollback { txn, .. } => *txn == t,
        });
    }
    let replays = Replays::new(case, history, runner);
    let mut current = replays.initial()?;
    // Per unit, the changes its statements made (state before, state after).
    let mut changes: Vec<Vec<(DbState, DbState)>> = vec![Vec::new(); units.len()];
    // Per unit: its savepoints, by name, with how many changes it had made.
    let mut savepoints: Vec<Vec<(String, usize)>> = vec![Vec::new(); units.len()];
    // Per statement that waited: where its wait began, and the state there.
    let mut waits: BTreeMap<usize, (usize, DbState)> = BTreeMap::new();
    // Per statement replayed: whether its change may have moved a row ([`may_move_rows`]).
    let mut moves: HashMap<usize, bool> = HashMap::new();
    let mut scanned = false;
    for (at, event) in history.schedule.iter().enumerate() {
        if let Event::Blocked { step } = event {
            waits.insert(*step, (at, current.clone()));
        }
        if let Event::Completed { step } = event {
            let failed = (history.steps[*step].outcome.error())
                .is_some_and(|e| matches!(e.class, ErrorClass::Deadlock | ErrorClass::LockTimeout));
            let sql = &case.steps[*step].stmt.sql;
            let kind = case.steps[*step].stmt.kind();
            let savepoint = matches!(
                kind,
                StmtKind::Savepoint | StmtKind::RollbackTo | StmtKind::Release
            );
            if let Some(u) = unit_of(*step).filter(|_| savepoint) {
                let succeeded = history.steps[*step].outcome.succeeded();
                match kind {
                    StmtKind::Savepoint if succeeded => {
                        savepoints[u].push((savepoint_name(sql), changes[u].len()));
                    }
                    StmtKind::RollbackTo if succeeded => {
                        let kept = kept_at(&savepoints[u], sql)?;
                        let undone: Vec<_> = changes[u].drain(kept..).collect();
                        let what = format!("{}'s rollback to a savepoint", units[u].label);
                        current = take_back(current, &undone, &what)?;
                    }
                    _ => {}
                }
            } else if let Some(u) = unit_of(*step).filter(|_| !failed) {
                // The state a scan read instead of the newest versions, if it did.
                let mut scan: Option<DbState> = None;
                let mut ran = replays.run_statement_on(&current, &units[u].label, *step)?;
                let differs = |answers: &[(usize, Outcome)]| {
                    (answers.iter()).any(|(s, o)| !same_outcome(&history.steps[*s].outcome, o))
                };
                if let Some((begun, start)) = waits.get(step).filter(|_| differs(&ran.1)) {
                    // A statement not replayed (one refused with a deadlock) is judged by its
                    // text.
                    let family = runner.profile().family();
                    let moved = (changed_during(case, history, *begun, at).into_iter()).any(|s| {
                        (moves.get(&s).copied())
                            .unwrap_or_else(|| !only_deletes_and_inserts(case, &[s], family))
                    });
                    for other in scan_states(case, *step, family, start, &current, moved) {
                        let again = replays.run_statement_on(&other, &units[u].label, *step)?;
                        if !differs(&again.1) {
                            (scan, ran, scanned) = (Some(other), again, true);
                            break;
                        }
                    }
                }
                let (after, answers) = ran;
                for (s, outcome) in answers {
                    if !same_outcome(&history.steps[s].outcome, &outcome) {
                        return Err(format!(
                            "{} `{}` answered {} concurrently, but alone on the newest versions (committed or not) when it completed answers {}",
                            units[u].label, case.steps[s].stmt.sql, history.steps[s].outcome, outcome
                        )
                        .into());
                    }
                }
                // What the statement changed, applied to the newest versions (a scan read
                // some rows as they were earlier).
                let next = match &scan {
                    None => after,
                    Some(read) => apply(&current, read, &after).map_err(|row| {
                        format!(
                            "{}'s change to row {row} cannot be replayed",
                            units[u].label
                        )
                    })?,
                };
                moves.insert(*step, may_move_rows(&current, &next));
                changes[u].push((current, next.clone()));
                current = next;
            }
        }
        for u in (0..units.len()).filter(|&u| ends[u] == Some(at)) {
            current = take_back(
                current,
                &changes[u],
                &format!("{}'s rollback", units[u].label),
            )?;
        }
    }
    if &current != state {
        return Err(
            "the statements' changes in completion order, each rolled-back transaction's taken back, do not give the final state"
                .into(),
        );
    }
    Ok(format!(
        "every statement answers as it does alone on the newest versions, committed or not, when it completed{}, and their changes, each rolled-back transaction's taken back where it ended, give the final state",
        if scanned { SCANNED } else { "" }
    ))
}

/// `current` with `changes` (each a statement's state before and after) taken back, the last
/// first; `what` names the rollback for the error, when a row one of them changed was changed
/// again since.
fn take_back(
    mut current: DbState,
    changes: &[(DbState, DbState)],
    what: &str,
) -> Result<DbState, NotShown> {
    for (before, after) in changes.iter().rev() {
        current = apply(&current, after, before).map_err(|row| {
            format!("{what} cannot be replayed: row {row} it changed was changed again")
        })?;
    }
    Ok(current)
}

/// The steps that completed, or whose transaction was rolled back (by a ROLLBACK or a
/// deadlock), between schedule positions `from` and `to`: what changed the rows while a
/// statement waited.
fn changed_during(case: &TestCase, history: &History, from: usize, to: usize) -> Vec<usize> {
    let txns = case.txns();
    let deadlocked = |step: usize| {
        (history.steps[step].outcome.error()).is_some_and(|e| e.class == ErrorClass::Deadlock)
    };
    (history.schedule[from..to].iter())
        .flat_map(|e| match e {
            Event::Completed { step } if deadlocked(*step) => (txns.iter())
                .find(|t| t.steps.contains(step))
                .map(|t| t.steps.clone())
                .unwrap_or_default(),
            Event::Completed { step } => vec![*step],
            Event::Rollback { txn, .. } => {
                (txns.get(*txn).map(|t| t.steps.clone())).unwrap_or_default()
            }
            Event::Blocked { .. } => Vec::new(),
        })
        .collect()
}
