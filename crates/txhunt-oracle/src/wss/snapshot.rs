//! Snapshot isolation decided by replay ([`Evidence::SnapshotReplay`]): for an engine whose
//! only level is snapshot isolation there is no stronger level to re-run a case at, so the
//! definition itself is checked, by re-executing on the same target.
//!
//! Under snapshot isolation (Berenson et al.; Adya's PL-SI) every committed transaction
//!
//! 1. reads the state the transactions committed before its snapshot left, plus its own
//!    writes — so running it alone on that state gives the same answers and the same
//!    changes; and
//! 2. installs its changes at commit, and no two concurrent committed transactions change the
//!    same row (first committer wins) — so applying every transaction's changes in commit
//!    order to the initial state gives the final state, and no change meets a row another
//!    concurrent transaction already changed.
//!
//! A transaction's *changes* are the rows its replay removed and added (bags per table, the
//! state before minus the state after and the reverse). The state of its snapshot is the
//! initial state with the changes of the transactions committed before it applied in commit
//! order (each computed on its own snapshot: replaying them one after another instead would
//! let a transaction see writes its snapshot missed); the replay restores that state, table
//! by table (the initial state is left as the setup wrote it: `Replays::run_on`), and runs
//! the transaction alone on it. Its snapshot is taken at its BEGIN;
//! where that does not explain the run, at its first statement (PostgreSQL's REPEATABLE READ
//! and MySQL take it there). An autocommit statement's snapshot is its own start.
//!
//! [`Evidence::SnapshotReplay`]: crate::permit::Evidence::SnapshotReplay

use super::schedule::{tx_serial, Serial, Unit};
use super::{order, NotShown};
use crate::same_rows;
use std::collections::HashMap;
use txhunt_exec::Runner;
use txhunt_model::value::{bag_difference, format_rows};
use txhunt_model::{DbState, Event, History, Outcome, Row, Stmt, StmtKind, TestCase, Txn};

/// Where a transaction's snapshot is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SnapshotAt {
    Begin,
    FirstStatement,
}

/// `Ok` saying how the committed transactions of `history` (`units`, in commit order) form a
/// snapshot-isolation execution, or `Err` with the first thing that shows they do not.
pub fn snapshot_replay(
    case: &TestCase,
    history: &History,
    units: &[Unit],
    runner: &dyn Runner,
) -> Result<String, NotShown> {
    let state = history.final_state.as_ref().ok_or("no final state")?;
    let committed = replayed(units);
    let replays = Replays::new(case, history, runner);
    let mut first_error = None;
    for at in [SnapshotAt::Begin, SnapshotAt::FirstStatement] {
        match check(case, history, state, &committed, at, &replays) {
            Ok(how) => return Ok(how),
            Err(why) => {
                first_error.get_or_insert(why);
            }
        }
    }
    Err(first_error.unwrap_or_else(|| "no snapshot point was tried".into()))
}

fn check(
    case: &TestCase,
    history: &History,
    state: &DbState,
    committed: &[&Unit],
    at: SnapshotAt,
    replays: &Replays<'_>,
) -> Result<String, NotShown> {
    let position = positions(history);
    let txns = case.txns();
    let txn_of = |u: &Unit| txns.iter().find(|t| t.steps.contains(&u.steps[0]));
    // Where each unit's snapshot is taken and where it commits, in schedule positions.
    let snapshot = |u: &Unit| -> Option<usize> {
        let first = match (at, txn_of(u)) {
            (SnapshotAt::Begin, Some(t)) if u.explicit => t.steps[0],
            _ => u.steps[0],
        };
        position.get(&first).copied()
    };
    let commit = |u: &Unit| commit_position(case, &txns, &position, u);
    let initial = replays.initial()?;
    let mut current = initial.clone();
    let mut changes: Vec<(DbState, DbState)> = Vec::new();
    for (i, unit) in committed.iter().enumerate() {
        let start = snapshot(unit).ok_or("a transaction's start is not in the schedule")?;
        let before: Vec<usize> = (0..i)
            .filter(|&j| commit(committed[j]).is_some_and(|c| c < start))
            .collect();
        let mut snapshot_state = initial.clone();
        for &j in &before {
            let (old, new) = &changes[j];
            snapshot_state = apply(&snapshot_state, old, new).map_err(|row| {
                format!("the snapshot of {} cannot be rebuilt ({row})", unit.label)
            })?;
        }
        let (after, answers) = replays.run_on(&snapshot_state, unit)?;
        for (s, outcome) in answers {
            if !same_outcome(&history.steps[s].outcome, &outcome) {
                let prefix: Vec<Unit> = before.iter().map(|&j| committed[j].clone()).collect();
                return Err(format!(
                    "{} `{}` answered {} concurrently, but {} alone on its snapshot (after {}) answers {}",
                    unit.label,
                    case.steps[s].stmt.sql,
                    history.steps[s].outcome,
                    unit.label,
                    named(&prefix),
                    outcome
                )
                .into());
            }
        }
        current = apply(&current, &snapshot_state, &after).map_err(|row| {
            format!(
                "{} changed row {row} that a concurrent transaction committed before it had already changed (first committer wins is violated: a lost update)",
                unit.label
            )
        })?;
        changes.push((snapshot_state, after));
    }
    if &current != state {
        return Err(
            "the committed transactions' changes, applied in commit order, do not give the final state"
                .into(),
        );
    }
    let place = match at {
        SnapshotAt::Begin => "at its BEGIN",
        SnapshotAt::FirstStatement => "at its first statement",
    };
    Ok(format!(
        "every committed transaction ({}) answers as it does alone on its snapshot (taken {place}), and their changes, disjoint, applied in commit order give the final state",
        order(&committed.iter().map(|u| (*u).clone()).collect::<Vec<_>>())
    ))
}

/// The committed transactions of `units` a replay runs: those with data statements (one of
/// BEGIN … COMMIT alone reads and changes nothing).
pub(super) fn replayed(units: &[Unit]) -> Vec<&Unit> {
    (units.iter())
        .filter(|u| u.committed && !u.steps.is_empty())
        .collect()
}

/// Where `unit` (with statements) committed in the schedule (`position`: each completed
/// step's place): its COMMIT, or, for an autocommit statement, the statement itself.
pub(super) fn commit_position(
    case: &TestCase,
    txns: &[Txn],
    position: &HashMap<usize, usize>,
    unit: &Unit,
) -> Option<usize> {
    let first = *unit.steps.first()?;
    let end = match txns.iter().find(|t| t.steps.contains(&first)) {
        Some(t) if unit.explicit => *t
            .steps
            .iter()
            .rev()
            .find(|&&s| case.steps[s].stmt.kind() == StmtKind::Commit)?,
        _ => first,
    };
    position.get(&end).copied()
}

/// Each completed step's position in the schedule.
pub(super) fn positions(history: &History) -> HashMap<usize, usize> {
    history
        .schedule
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match e {
            Event::Completed { step } => Some((*step, i)),
            _ => None,
        })
        .collect()
}

/// Whether two outcomes of one statement agree: the same rows (as bags) or count, or errors
/// of one class.
pub(super) fn same_outcome(a: &Outcome, b: &Outcome) -> bool {
    match (a, b) {
        (Outcome::Error(x), Outcome::Error(y)) => x.class == y.class,
        (Outcome::Affected { count: x }, Outcome::Affected { count: y }) => x == y,
        (Outcome::Rows { .. }, Outcome::Rows { .. }) => same_rows(a, b),
        (Outcome::Ok, Outcome::Ok) => true,
        _ => false,
    }
}

/// `current` with the change from `before` to `after` applied (rows `before` has and `after`
/// lacks are removed, the reverse added, per table, as bags); `Err` naming a row to remove
/// that `current` no longer has.
pub(super) fn apply(
    current: &DbState,
    before: &DbState,
    after: &DbState,
) -> Result<DbState, NotShown> {
    let mut next = DbState::new();
    let names: std::collections::BTreeSet<&str> = current
        .tables()
        .chain(before.tables())
        .chain(after.tables())
        .map(|(n, _)| n)
        .collect();
    for name in names {
        let rows = |s: &DbState| s.table(name).map(<[Row]>::to_vec).unwrap_or_default();
        let (mut table, old, new) = (rows(current), rows(before), rows(after));
        for row in bag_difference(&old, &new) {
            let at = table
                .iter()
                .position(|r| *r == row)
                .ok_or_else(|| format!("{name} {}", format_rows(std::slice::from_ref(&row))))?;
            table.remove(at);
        }
        table.extend(bag_difference(&new, &old));
        if current.table(name).is_some() || after.table(name).is_some() {
            next.insert(name, table);
        }
    }
    Ok(next)
}

fn named(units: &[Unit]) -> String {
    if units.is_empty() {
        "nothing".into()
    } else {
        order(units)
    }
}

/// Replays on the target: the initial state, and one transaction alone on a given state.
pub(super) struct Replays<'a> {
    case: &'a TestCase,
    history: &'a History,
    runner: &'a dyn Runner,
    /// The state the case's setup leaves, once [`Replays::initial`] read it.
    initial: std::sync::OnceLock<DbState>,
}

impl<'a> Replays<'a> {
    pub(super) fn new(case: &'a TestCase, history: &'a History, runner: &'a dyn Runner) -> Self {
        Replays {
            case,
            history,
            runner,
            initial: std::sync::OnceLock::new(),
        }
    }

    /// The state the case's setup leaves.
    pub(super) fn initial(&self) -> Result<DbState, NotShown> {
        if let Some(state) = self.initial.get() {
            return Ok(state.clone());
        }
        let state = self.run(&tx_serial(self.case, &[]))?.0;
        Ok(self.initial.get_or_init(|| state).clone())
    }

    /// The final state of `unit` run alone on `state`, and the outcome of each of its
    /// statements (by original step).
    ///
    /// The initial state is left as the setup wrote it, not restored: its rows stay in the
    /// order the run had them in, and a statement whose answer depends on the order it visits
    /// rows in (PostgreSQL checks a UNIQUE constraint row by row, so `UPDATE t SET k = k + 1`
    /// succeeds or fails by that order) answers alone as it did in the run. Any other state is
    /// restored table by table, its rows in the order of their values.
    pub(super) fn run_on(
        &self,
        state: &DbState,
        unit: &Unit,
    ) -> Result<(DbState, Vec<(usize, Outcome)>), NotShown> {
        let mut serial = tx_serial(self.case, std::slice::from_ref(unit));
        if self.initial.get() != Some(state) {
            serial.case.init.extend(restore(self.case, state));
        }
        self.run(&serial)
    }

    /// The final state of step `step` run alone (autocommit, in a unit labelled `label`) on
    /// `state`, and its outcome.
    pub(super) fn run_statement_on(
        &self,
        state: &DbState,
        label: &str,
        step: usize,
    ) -> Result<(DbState, Vec<(usize, Outcome)>), NotShown> {
        let alone = Unit {
            label: label.to_string(),
            steps: vec![step],
            explicit: false,
            committed: true,
            tie: None,
        };
        self.run_on(state, &alone)
    }

    fn run(&self, serial: &Serial) -> Result<(DbState, Vec<(usize, Outcome)>), NotShown> {
        let ran = self
            .runner
            .run(&serial.case, self.history.isolation)
            .map_err(|e| format!("a replay could not run: {e}"))?;
        let state = ran
            .final_state
            .clone()
            .ok_or("a replay left no final state")?;
        let answers = serial
            .origin
            .iter()
            .zip(&ran.steps)
            .filter_map(|(origin, record)| origin.map(|s| (s, record.outcome.clone())))
            .collect();
        Ok((state, answers))
    }
}

/// Statements that turn the database the case's setup left into `state`: every table
/// emptied (in the reverse order the setup created them, so that rows referring to others go
/// first) and refilled (in creation order).
fn restore(case: &TestCase, state: &DbState) -> Vec<Stmt> {
    let mut tables: Vec<&str> = state.tables().map(|(name, _)| name).collect();
    let created = |name: &str| {
        case.init.iter().position(|stmt| {
            let words: Vec<String> = stmt
                .sql
                .split(|c: char| c.is_whitespace() || c == '(')
                .filter(|w| !w.is_empty())
                .take(3)
                .map(str::to_ascii_lowercase)
                .collect();
            words.len() == 3 && words[0] == "create" && words[1] == "table" && words[2] == name
        })
    };
    tables.sort_by_key(|name| created(name));
    let mut stmts: Vec<Stmt> = tables
        .iter()
        .rev()
        .map(|name| Stmt::new(format!("DELETE FROM {name}")))
        .collect();
    for name in tables {
        let rows = state.table(name).unwrap_or_default();
        if rows.is_empty() {
            continue;
        }
        // `[(1, 'a'), (2, NULL)]` without its brackets is a VALUES list of SQL literals.
        let bag = format_rows(rows);
        let values = &bag[1..bag.len() - 1];
        stmts.push(Stmt::new(format!("INSERT INTO {name} VALUES {values}")));
    }
    stmts
}
