//! What a case and its run must show before a documented behaviour may explain a WSS violation
//! at all: the behaviour needs its occasion. Read from the history's schedule and the tables
//! each statement names, never from what the statements mean.
//!
//! * no gap locks: an INSERT into a table that another transaction, still open, had read,
//!   updated or deleted from;
//! * semi-consistent read: an UPDATE that did not wait although another open transaction had
//!   written to its table;
//! * dirty read: a statement that ran while another open transaction had written to its table;
//! * statement snapshots (READ COMMITTED): another transaction committed while a transaction
//!   was between its statements, or a statement waited for a lock (and re-checked);
//! * snapshot order, write skew, some serial order: none (their evidence alone discriminates).

use super::NotShown;
use std::collections::BTreeSet;
use txhunt_db::profile::claim::Behaviour;
use txhunt_model::{History, SqlFamily, StmtKind, TestCase, Txn, TxnStatus};
use txhunt_sql::analysis::tables;

/// `Ok` when `case`'s run `history` gives `behaviour` its occasion, else why not.
pub fn occasion(
    behaviour: Behaviour,
    case: &TestCase,
    history: &History,
    family: SqlFamily,
) -> Result<(), NotShown> {
    let run = Run::new(case, history, family);
    let found = match behaviour {
        Behaviour::NoGapLocks => run.insert_into_open_range(),
        Behaviour::SemiConsistentRead => run.beside_open_writer(|s| {
            case.steps[s].stmt.kind() == StmtKind::Update && !history.steps[s].blocked
        }),
        Behaviour::DirtyRead => run.beside_open_writer(|s| {
            !matches!(
                case.steps[s].stmt.kind(),
                StmtKind::Begin
                    | StmtKind::Commit
                    | StmtKind::Rollback
                    | StmtKind::Savepoint
                    | StmtKind::RollbackTo
                    | StmtKind::Release
            )
        }),
        Behaviour::StatementSnapshots => run.snapshot_moved(),
        Behaviour::SnapshotOrder
        | Behaviour::WriteSkew
        | Behaviour::SomeSerialOrder
        | Behaviour::NeedlessRefusal => true,
    };
    if found {
        return Ok(());
    }
    Err(match behaviour {
        Behaviour::NoGapLocks => {
            "no INSERT went into a table another open transaction had read, updated or deleted from"
        }
        Behaviour::SemiConsistentRead => {
            "no UPDATE ran without waiting beside another open transaction's write to its table"
        }
        Behaviour::DirtyRead => {
            "no statement ran beside another open transaction's write to its table"
        }
        _ => "no transaction saw another commit between its statements, and no statement waited",
    }
    .into())
}

/// The run as the preconditions read it.
struct Run<'a> {
    case: &'a TestCase,
    history: &'a History,
    txns: Vec<Txn>,
    /// Per step: the tables it names.
    tables: Vec<BTreeSet<String>>,
}

impl<'a> Run<'a> {
    fn new(case: &'a TestCase, history: &'a History, family: SqlFamily) -> Self {
        Run {
            case,
            history,
            txns: case.txns(),
            tables: case
                .steps
                .iter()
                .map(|s| tables(&s.stmt.sql, family))
                .collect(),
        }
    }

    /// The transaction of step `s`.
    fn txn(&self, s: usize) -> Option<usize> {
        self.txns.iter().position(|t| t.steps.contains(&s))
    }

    /// When step `s` completed, if it did.
    fn at(&self, s: usize) -> Option<usize> {
        self.history.steps[s].completed
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

    /// Whether another transaction than step `s`'s completed step `other` before `s`, had not
    /// ended when `s` completed, and names a table `s` names.
    fn open_before(&self, other: usize, s: usize) -> bool {
        let (Some(mine), Some(theirs)) = (self.txn(s), self.txn(other)) else {
            return false;
        };
        let (Some(now), Some(then)) = (self.at(s), self.at(other)) else {
            return false;
        };
        mine != theirs
            && then < now
            && self.end(theirs) > now
            && !self.tables[s].is_disjoint(&self.tables[other])
    }

    /// A step that completed successfully.
    fn succeeded(&self, s: usize) -> bool {
        self.at(s).is_some() && self.history.steps[s].outcome.succeeded()
    }

    /// Whether an INSERT went into a table another open transaction had read, updated or
    /// deleted from.
    fn insert_into_open_range(&self) -> bool {
        let kind = |s: usize| self.case.steps[s].stmt.kind();
        (0..self.case.steps.len())
            .filter(|&i| kind(i) == StmtKind::Insert && self.succeeded(i))
            .any(|i| {
                (0..self.case.steps.len()).any(|r| {
                    matches!(
                        kind(r),
                        StmtKind::Select | StmtKind::Update | StmtKind::Delete
                    ) && self.succeeded(r)
                        && self.open_before(r, i)
                })
            })
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

    /// Whether a statement waited, or another transaction committed while a transaction was
    /// between its first and last statements.
    fn snapshot_moved(&self) -> bool {
        if self.history.steps.iter().any(|s| s.blocked) {
            return true;
        }
        let committed_at: Vec<usize> = (0..self.txns.len())
            .filter(|&t| {
                self.history
                    .txns
                    .get(t)
                    .is_some_and(|r| r.status.committed())
            })
            .map(|t| self.end(t))
            .collect();
        self.txns.iter().any(|t| {
            let times: Vec<usize> = t.steps.iter().filter_map(|&s| self.at(s)).collect();
            let (Some(&first), Some(&last)) = (times.iter().min(), times.iter().max()) else {
                return false;
            };
            committed_at.iter().any(|&c| first < c && c < last)
        })
    }
}
