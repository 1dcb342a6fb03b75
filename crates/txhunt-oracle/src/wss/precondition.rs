//! What a case and its run must show before a documented behaviour may explain a WSS violation
//! at all: the behaviour needs its occasion. Read from the history's schedule and the tables
//! each statement names, never from what the statements mean.
//!
//! * no gap locks: an INSERT into a table that another transaction, open while the INSERT
//!   ran, had read, updated or deleted from;
//! * semi-consistent read: an UPDATE that ran while another open transaction had written to
//!   its table (the UPDATE may have waited for some other lock: it meets the written rows
//!   later, and skips them);
//! * dirty read: a statement that ran while another open transaction had written to its table;
//! * unlocked source reads: a write with a subquery or an INSERT … SELECT, and another
//!   transaction's write to a table it names while both transactions were open (before the
//!   write, uncommitted, or after it);
//!
//! "While" is read in schedule order: a statement runs from its submission (or its block)
//! to its completion, and a transaction is open until its last statement completed.
//! * statement snapshots (READ COMMITTED): another transaction committed while a transaction
//!   was between its statements, or a statement waited for a lock (and re-checked);
//! * snapshot order, write skew, some serial order: none (their evidence alone discriminates).

use super::NotShown;
use std::collections::BTreeSet;
use txhunt_db::profile::claim::Behaviour;
use txhunt_model::{Event, History, Outcome, SqlFamily, StmtKind, TestCase, Txn, TxnStatus};
use txhunt_sql::analysis::{selects, tables, updates_on_conflict, values_rows};

/// `Ok` when `case`'s run `history` gives `behaviour` its occasion, else why not.
pub fn occasion(
    behaviour: Behaviour,
    case: &TestCase,
    history: &History,
    family: SqlFamily,
) -> Result<(), NotShown> {
    let run = Run::new(case, history, family);
    let found = match behaviour {
        Behaviour::NoGapLocks => run.write_into_open_range(),
        Behaviour::SemiConsistentRead => {
            run.beside_open_writer(|s| case.steps[s].stmt.kind() == StmtKind::Update)
        }
        Behaviour::DirtyRead => {
            run.beside_open_writer(|s| !case.steps[s].stmt.kind().is_transaction_control())
        }
        Behaviour::StatementSnapshots => run.snapshot_moved(),
        Behaviour::UnlockedSourceReads => run.source_changed_under_writer(),
        Behaviour::SnapshotOrder
        | Behaviour::LatestCommittedWrites
        | Behaviour::LockingReadSubqueries
        | Behaviour::WriteSkew
        | Behaviour::SomeSerialOrder
        | Behaviour::NeedlessRefusal => true,
    };
    if found {
        return Ok(());
    }
    Err(match behaviour {
        Behaviour::NoGapLocks => {
            "no INSERT or UPDATE went into a table another open transaction had read, updated or deleted from"
        }
        Behaviour::SemiConsistentRead => {
            "no UPDATE ran beside another open transaction's write to its table"
        }
        Behaviour::UnlockedSourceReads => {
            "no write with a subquery or INSERT … SELECT met another open transaction's write to its tables"
        }
        Behaviour::DirtyRead => {
            "no statement ran beside another open transaction's write to its table"
        }
        _ => "no transaction saw another commit between its statements, and no statement waited",
    }
    .into())
}

/// The INSERT steps of `case`'s run `history` that went into a table another open
/// transaction had read, updated or deleted from: the occasions of a missing gap lock.
pub fn gap_inserts(case: &TestCase, history: &History, family: SqlFamily) -> Vec<usize> {
    Run::new(case, history, family).inserts_into_open_ranges()
}

/// Of [`gap_inserts`], those that completed after every error that aborted a transaction in
/// the run: without only these, the run's prefix up to its last abort is unchanged, so a
/// variant keeps the run's deadlock victims where removing every gap insert may not.
pub fn gap_inserts_after_aborts(
    case: &TestCase,
    history: &History,
    family: SqlFamily,
) -> Vec<usize> {
    let run = Run::new(case, history, family);
    let last_abort = history
        .txns
        .iter()
        .filter_map(|t| match t.status {
            TxnStatus::Aborted { step, .. } => run.at(step),
            _ => None,
        })
        .max();
    run.inserts_into_open_ranges_where(|i| {
        last_abort.is_none_or(|abort| run.at(i).is_some_and(|at| at > abort))
    })
}

/// Of [`gap_inserts`], those that committed: of a transaction that committed, or run in
/// autocommit after an error had aborted their transaction. The rows a rolled-back or aborted
/// transaction inserted are not in the final state. Without only these, every transaction
/// that did not commit keeps its writes and locks, and so the weight InnoDB chooses a
/// deadlock victim by (rows changed, locks held), where removing every gap insert may make
/// another transaction the victim.
pub fn gap_inserts_that_committed(
    case: &TestCase,
    history: &History,
    family: SqlFamily,
) -> Vec<usize> {
    let run = Run::new(case, history, family);
    let committed = |i: usize| {
        run.txn(i).is_some_and(|t| match history.txns[t].status {
            TxnStatus::Committed => true,
            TxnStatus::Aborted { step, .. } => {
                matches!((run.at(i), run.at(step)), (Some(at), Some(abort)) if at > abort)
            }
            _ => false,
        })
    };
    run.inserts_into_open_ranges_where(committed)
}

/// The steps of `case`'s run `history` that read a newer snapshot than their transaction's
/// first statement did (at READ COMMITTED): each waited for a lock, or another transaction
/// committed after its transaction's first statement and before it started.
pub fn newer_snapshot_steps(case: &TestCase, history: &History, family: SqlFamily) -> Vec<usize> {
    let run = Run::new(case, history, family);
    let commits = run.commit_times();
    (0..case.steps.len())
        .filter(|&s| {
            if history.steps[s].blocked {
                return true;
            }
            let (Some(t), Some(start)) = (run.txn(s), run.started(s)) else {
                return false;
            };
            let first = run.txns[t].steps.iter().filter_map(|&x| run.at(x)).min();
            first.is_some_and(|first| commits.iter().any(|&c| first < c && c < start))
        })
        .collect()
}

/// The run as the preconditions read it.
struct Run<'a> {
    case: &'a TestCase,
    history: &'a History,
    txns: Vec<Txn>,
    /// Per step: the tables it names.
    tables: Vec<BTreeSet<String>>,
    /// Per step: its first and its last event in the schedule (blocked, completed), if any.
    events: Vec<Option<(usize, usize)>>,
    /// The SQL family statements are read in.
    family: SqlFamily,
}

impl<'a> Run<'a> {
    fn new(case: &'a TestCase, history: &'a History, family: SqlFamily) -> Self {
        let mut events: Vec<Option<(usize, usize)>> = vec![None; case.steps.len()];
        for (i, event) in history.schedule.iter().enumerate() {
            let step = match event {
                Event::Blocked { step } | Event::Completed { step } => *step,
                Event::Rollback { .. } => continue,
            };
            let span = events[step].get_or_insert((i, i));
            span.1 = i;
        }
        Run {
            case,
            history,
            txns: case.txns(),
            tables: case
                .steps
                .iter()
                .map(|s| tables(&s.stmt.sql, family))
                .collect(),
            events,
            family,
        }
    }

    /// The transaction of step `s`.
    fn txn(&self, s: usize) -> Option<usize> {
        self.txns.iter().position(|t| t.steps.contains(&s))
    }

    /// When step `s` completed (its place in the schedule), if it did.
    fn at(&self, s: usize) -> Option<usize> {
        self.history.steps[s].completed?;
        self.events[s].map(|(_, end)| end)
    }

    /// When step `s` started (was submitted and blocked, or completed at once), if it did.
    fn started(&self, s: usize) -> Option<usize> {
        self.events[s].map(|(start, _)| start)
    }

    /// When transaction `t` ended: its aborting statement, else its last completed one; never,
    /// when it did not end.
    fn end(&self, t: usize) -> usize {
        match self.history.txns.get(t).map(|r| &r.status) {
            Some(TxnStatus::Aborted { step, .. }) => self.at(*step).unwrap_or(usize::MAX),
            Some(TxnStatus::Committed | TxnStatus::RolledBack) => self.txns[t]
                .steps
                .iter()
                .filter_map(|&s| self.at(s))
                .max()
                .unwrap_or(usize::MAX),
            Some(TxnStatus::Unfinished) | None => usize::MAX,
        }
    }

    /// Whether another transaction than step `s`'s completed step `other` before `s` did, was
    /// still open when `s` started, and names a table `s` names.
    fn open_before(&self, other: usize, s: usize) -> bool {
        let (Some(mine), Some(theirs)) = (self.txn(s), self.txn(other)) else {
            return false;
        };
        let (Some(now), Some(start), Some(then)) = (self.at(s), self.started(s), self.at(other))
        else {
            return false;
        };
        mine != theirs
            && then < now
            && self.end(theirs) > start
            && !self.tables[s].is_disjoint(&self.tables[other])
    }

    /// Whether another transaction's step `other` had started, and was waiting for a lock,
    /// before `s` completed, completed after `s` did, and names a table `s` names: a scan that
    /// met a locked row has read the range before it, and `s` went in meanwhile. (`s` may
    /// have begun to wait first: a write that waited writes its rows once it resumes.)
    fn waiting_across(&self, other: usize, s: usize) -> bool {
        let (Some(mine), Some(theirs)) = (self.txn(s), self.txn(other)) else {
            return false;
        };
        let (Some(now), Some(then), Some(waited)) =
            (self.at(s), self.at(other), self.started(other))
        else {
            return false;
        };
        mine != theirs
            && self.history.steps[other].blocked
            && waited < now
            && then > now
            && !self.tables[s].is_disjoint(&self.tables[other])
    }

    /// A step that completed successfully.
    fn succeeded(&self, s: usize) -> bool {
        self.at(s).is_some() && self.history.steps[s].outcome.succeeded()
    }

    /// Whether an INSERT went into a table another open transaction had read, updated or
    /// deleted from.
    /// Whether an INSERT or an UPDATE (which may move a row into a range) went into a table
    /// another open transaction had read, updated or deleted from.
    fn write_into_open_range(&self) -> bool {
        !self
            .writes_into_open_ranges(&[StmtKind::Insert, StmtKind::Update])
            .is_empty()
    }

    /// The INSERTs that went into a table another open transaction had read, updated or
    /// deleted from.
    fn inserts_into_open_ranges(&self) -> Vec<usize> {
        let mut inserts = self.writes_into_open_ranges(&[StmtKind::Insert]);
        inserts.retain(|&i| self.only_inserted(i));
        inserts
    }

    /// Whether step `i`, an INSERT that succeeded, only inserted rows (a `REPLACE` counts: the
    /// row it puts in a replaced one's place has that row's key): a plain INSERT, or one that
    /// updates on conflict (`ON DUPLICATE KEY UPDATE`, `ON CONFLICT … DO UPDATE`) known to have
    /// updated nothing — on MySQL and MariaDB one row whose count is 1 (InnoDB counts 2 for a
    /// row it updated, 0 for one it left as it was; of several rows the sum cannot tell). An
    /// upsert that updated a row may have moved it (case 1337 of seed 7014 on MariaDB: an
    /// upsert that changed a row's key, removed as an "insert into an open range", took the
    /// very update that made MDEV-27992 with it).
    fn only_inserted(&self, i: usize) -> bool {
        let stmt = &self.case.steps[i].stmt;
        if !updates_on_conflict(&stmt.sql, self.family) {
            return true;
        }
        self.family == SqlFamily::Mysql
            && values_rows(&stmt.sql, self.family) == Some(1)
            && self.history.steps[i].outcome == Outcome::Affected { count: 1 }
    }

    /// Of [`Run::inserts_into_open_ranges`], those `keep` keeps.
    fn inserts_into_open_ranges_where(&self, keep: impl Fn(usize) -> bool) -> Vec<usize> {
        let mut inserts = self.inserts_into_open_ranges();
        inserts.retain(|&i| keep(i));
        inserts
    }

    /// The writes of the `kinds` that went into a table another open transaction had read,
    /// updated or deleted from, or was reading, updating or deleting from while waiting for a
    /// lock.
    fn writes_into_open_ranges(&self, kinds: &[StmtKind]) -> Vec<usize> {
        let kind = |s: usize| self.case.steps[s].stmt.kind();
        (0..self.case.steps.len())
            .filter(|&i| kinds.contains(&kind(i)) && self.succeeded(i))
            .filter(|&i| {
                (0..self.case.steps.len()).any(|r| {
                    matches!(
                        kind(r),
                        StmtKind::Select | StmtKind::Update | StmtKind::Delete
                    ) && self.succeeded(r)
                        && (self.open_before(r, i) || self.waiting_across(r, i))
                })
            })
            .collect()
    }

    /// Whether a step `chosen` picks ran after another open transaction's write to its table.
    fn beside_open_writer(&self, chosen: impl Fn(usize) -> bool) -> bool {
        let n = self.case.steps.len();
        (0..n)
            .filter(|&s| chosen(s) && self.at(s).is_some())
            .any(|s| {
                (0..n).any(|w| {
                    self.case.steps[w].stmt.kind().is_write()
                        && self.succeeded(w)
                        && self.open_before(w, s)
                })
            })
    }

    /// Whether a write that reads other rows (a subquery, INSERT … SELECT) met another open
    /// transaction's write to a table it names, or was followed, while its transaction was
    /// open, by such a write.
    fn source_changed_under_writer(&self) -> bool {
        let n = self.case.steps.len();
        let reads_rows = |s: usize| {
            let stmt = &self.case.steps[s].stmt;
            stmt.kind().is_write() && selects(&stmt.sql, self.family)
        };
        (0..n)
            .filter(|&w| reads_rows(w) && self.succeeded(w))
            .any(|w| {
                (0..n).any(|other| {
                    self.case.steps[other].stmt.kind().is_write()
                        && self.succeeded(other)
                        && (self.open_before(w, other) || self.open_before(other, w))
                })
            })
    }

    /// Whether a statement waited, or another transaction committed while a transaction was
    /// between its first and last statements.
    fn snapshot_moved(&self) -> bool {
        if self.history.steps.iter().any(|s| s.blocked) {
            return true;
        }
        let committed_at = self.commit_times();
        self.txns.iter().any(|t| {
            let times: Vec<usize> = t.steps.iter().filter_map(|&s| self.at(s)).collect();
            let (Some(&first), Some(&last)) = (times.iter().min(), times.iter().max()) else {
                return false;
            };
            committed_at.iter().any(|&c| first < c && c < last)
        })
    }

    /// When commits happened: each committed transaction's end, and each statement that ran
    /// on its own (autocommit) after its transaction was aborted.
    fn commit_times(&self) -> Vec<usize> {
        let mut committed_at: Vec<usize> = (0..self.txns.len())
            .filter(|&t| {
                self.history
                    .txns
                    .get(t)
                    .is_some_and(|r| r.status.committed())
            })
            .map(|t| self.end(t))
            .collect();
        // Statements of an aborted transaction that ran after the abort committed on their
        // own (autocommit).
        for (t, txn) in self.txns.iter().enumerate() {
            if let Some(TxnStatus::Aborted { step, .. }) =
                self.history.txns.get(t).map(|r| &r.status)
            {
                let aborted_at = self.at(*step);
                committed_at.extend(
                    txn.steps
                        .iter()
                        .filter(|&&s| self.succeeded(s) && self.at(s) > aborted_at)
                        .filter_map(|&s| self.at(s)),
                );
            }
        }
        committed_at
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use txhunt_model::{Isolation, StepRecord, TxnRecord};

    /// `text`'s case, run in its submitted order with each step's `outcomes` (every
    /// transaction committed).
    fn run_of(text: &str, outcomes: Vec<Outcome>) -> (TestCase, History) {
        let case = txhunt_model::scenario::parse(text, "case.sql").expect("parses");
        let steps = (outcomes.into_iter().enumerate())
            .map(|(i, outcome)| StepRecord {
                submitted: Some(i),
                completed: Some(i),
                blocked: false,
                outcome,
                resumed_together: None,
                accesses: None,
            })
            .collect::<Vec<_>>();
        let history = History {
            target: "mariadb".into(),
            isolation: Isolation::ReadCommitted,
            init: Vec::new(),
            init_writes: Vec::new(),
            schedule: (0..steps.len())
                .map(|step| Event::Completed { step })
                .collect(),
            steps,
            txns: (case.txns().iter())
                .map(|t| TxnRecord {
                    label: t.label.clone(),
                    status: TxnStatus::Committed,
                })
                .collect(),
            final_state: None,
            final_state_error: None,
            tables: Vec::new(),
        };
        (case, history)
    }

    #[test]
    fn an_upsert_is_an_insert_into_an_open_range_only_where_it_updated_nothing() {
        let (case, history) = run_of(
            "/* init */ CREATE TABLE t (k INT PRIMARY KEY);
/* t1 */ BEGIN;
/* t1 */ SELECT * FROM t;
/* t2 */ INSERT INTO t VALUES (1) ON DUPLICATE KEY UPDATE k = 2;
/* t3 */ INSERT INTO t VALUES (5) ON DUPLICATE KEY UPDATE k = 6;
/* t4 */ INSERT INTO t VALUES (7), (8) ON DUPLICATE KEY UPDATE k = 9;
/* t5 */ INSERT INTO t VALUES (10);
/* t1 */ COMMIT;
",
            [
                Outcome::Ok,
                Outcome::Rows {
                    columns: vec!["k".into()],
                    rows: Vec::new(),
                },
            ]
            .into_iter()
            .chain([2, 1, 2, 1].map(|count| Outcome::Affected { count }))
            .chain([Outcome::Ok])
            .collect(),
        );
        // t2's upsert updated its row (2), t4's two rows may have (2 = 1 + 1 or 2 + 0); t3's
        // one row was inserted (1), as was t5's.
        assert_eq!(gap_inserts(&case, &history, SqlFamily::Mysql), [3, 5]);
    }
}
