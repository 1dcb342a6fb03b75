//! READ COMMITTED decided by replay, statement by statement ([`Evidence::CommittedReplay`]):
//! for InnoDB below REPEATABLE READ, where every statement reads the newest committed
//! versions of rows (a consistent read takes a fresh snapshot; an UPDATE reads the newest
//! committed version of a row another transaction locked, and skips it when that does not
//! match: semi-consistent read), and for PostgreSQL's READ COMMITTED, where every statement
//! reads a snapshot taken when it starts; in both, writes lock rows until commit.
//!
//! Such a run is shown by replay: every statement of a committed transaction, run alone on
//! the state committed when it started plus its own transaction's changes before it,
//! answers as it did concurrently; and the changes each transaction's statements made,
//! applied in commit order, give the final state without one removing a row another
//! transaction's had already changed. On InnoDB a statement that waited for a lock is
//! replayed on the state committed when it completed instead (its blocker had ended by then,
//! and its scan went on over the newest versions); one that saw both moments (rows scanned
//! before the wait and after) does not replay, and the run is not shown. PostgreSQL
//! re-checks only the rows a waiting statement had found, never rows that came to match
//! meanwhile, which the state at its completion would show it: there it is replayed at its
//! start, and replays only where the re-check changed nothing. A savepoint's ROLLBACK TO takes back the changes its transaction made after it.
//! Unlike the statement order ([`Evidence::StatementOrder`]), this needs no
//! instrumentation, so it also covers statements the SDG oracle cannot track (REPLACE).
//!
//! [`Evidence::CommittedReplay`]: crate::permit::Evidence::CommittedReplay
//! [`Evidence::StatementOrder`]: crate::permit::Evidence::StatementOrder

use super::schedule::Unit;
use super::snapshot::{apply, commit_position, positions, replayed, same_outcome, Replays};
use super::{order, NotShown};
use txhunt_exec::Runner;
use txhunt_model::{DbState, Event, History, SqlFamily, StmtKind, TestCase};

/// `Ok` saying how the committed transactions of `history` (`units`) form a READ COMMITTED
/// execution at the statement level, or `Err` with the first thing that shows they do not.
pub fn committed_replay(
    case: &TestCase,
    history: &History,
    units: &[Unit],
    runner: &dyn Runner,
) -> Result<String, NotShown> {
    let state = history.final_state.as_ref().ok_or("no final state")?;
    let committed = replayed(units);
    let completed = positions(history);
    let txns = case.txns();
    let commits: Vec<usize> = (committed.iter())
        .map(|u| commit_position(case, &txns, &completed, u))
        .collect::<Option<_>>()
        .ok_or("a committed transaction's end is not in the schedule")?;
    // Each statement with the point it read at: where it started, or, when it waited on
    // InnoDB, where it completed.
    let mut statements: Vec<(usize, usize, usize)> = Vec::new();
    let after_waits = runner.profile().family() == SqlFamily::Mysql;
    for (u, unit) in committed.iter().enumerate() {
        for &s in &unit.steps {
            let at = if history.steps[s].blocked && after_waits {
                completed.get(&s).copied()
            } else {
                started(history, s)
            };
            statements.push((at.ok_or("a statement is not in the schedule")?, u, s));
        }
    }
    statements.sort();
    let replays = Replays::new(case, history, runner);
    let initial = replays.initial()?;
    // Per committed transaction: each of its statements' state before and after.
    let mut changes: Vec<Vec<(DbState, DbState)>> = vec![Vec::new(); committed.len()];
    let mut by_commit: Vec<usize> = (0..committed.len()).collect();
    by_commit.sort_by_key(|&u| commits[u]);
    // Per committed transaction: its savepoints, by name, with how many changes it had made.
    let mut savepoints: Vec<Vec<(String, usize)>> = vec![Vec::new(); committed.len()];
    for (at, u, s) in statements {
        let sql = &case.steps[s].stmt.sql;
        match case.steps[s].stmt.kind() {
            StmtKind::Savepoint => {
                savepoints[u].push((savepoint_name(sql), changes[u].len()));
                continue;
            }
            StmtKind::RollbackTo => {
                let name = savepoint_name(sql);
                let kept = (savepoints[u].iter().rev())
                    .find(|(n, _)| *n == name)
                    .map(|(_, kept)| *kept)
                    .ok_or("a ROLLBACK TO names a savepoint its transaction did not set")?;
                changes[u].truncate(kept);
                continue;
            }
            StmtKind::Release => continue,
            _ => {}
        }
        let before = by_commit.iter().filter(|&&v| commits[v] < at && v != u);
        let mut state = initial.clone();
        for change in before.map(|&v| &changes[v]).chain([&changes[u]]) {
            for (old, new) in change {
                state = apply(&state, old, new).map_err(|row| {
                    format!(
                        "the state {} read cannot be rebuilt ({row})",
                        committed[u].label
                    )
                })?;
            }
        }
        let (after, answers) = replays.run_statement_on(&state, &committed[u].label, s)?;
        for (step, outcome) in answers {
            if !same_outcome(&history.steps[step].outcome, &outcome) {
                return Err(format!(
                    "{} `{}` answered {} concurrently, but alone on the state committed when it {} (with its transaction's changes before it) answers {}",
                    committed[u].label,
                    case.steps[step].stmt.sql,
                    history.steps[step].outcome,
                    if history.steps[step].blocked && after_waits {
                        "completed"
                    } else {
                        "started"
                    },
                    outcome
                )
                .into());
            }
        }
        changes[u].push((state, after));
    }
    let mut current = initial;
    for &u in &by_commit {
        for (old, new) in &changes[u] {
            current = apply(&current, old, new).map_err(|row| {
                format!(
                    "{} changed row {row} that a transaction committed before it had already changed",
                    committed[u].label
                )
            })?;
        }
    }
    if &current != state {
        return Err(
            "the committed transactions' changes, statement by statement, applied in commit order, do not give the final state"
                .into(),
        );
    }
    let ordered: Vec<Unit> = by_commit.iter().map(|&u| committed[u].clone()).collect();
    Ok(format!(
        "every statement of the committed transactions ({}) answers as it does alone on the state committed when it started{}, and their changes applied in commit order give the final state",
        order(&ordered),
        if after_waits { " (when it completed, if it waited)" } else { "" }
    ))
}

/// The savepoint `sql` (`SAVEPOINT sp1`, `ROLLBACK TO [SAVEPOINT] sp1`) names, lowercase.
fn savepoint_name(sql: &str) -> String {
    sql.split_whitespace()
        .last()
        .unwrap_or_default()
        .trim_end_matches(';')
        .to_lowercase()
}

/// Where step `s` started in the schedule: its first event.
fn started(history: &History, s: usize) -> Option<usize> {
    history.schedule.iter().position(|e| match e {
        Event::Blocked { step } | Event::Completed { step } => *step == s,
        Event::Rollback { .. } => false,
    })
}
