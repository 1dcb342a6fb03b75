//! The FCRFS serial schedules of paper 001 (§3.3, §4, §5.4): transactions ordered by when
//! their ending statement ran in the actual schedule.

use txhunt_model::{ErrorClass, History, Outcome, Step, StmtKind, TestCase, TxnStatus};

/// One transaction of the serial schedule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    /// The transaction's label (`t1`, `t2#2`, …; `t1+` for a statement that ran in autocommit
    /// after its transaction was aborted).
    pub label: String,
    /// Its data statements that ran, as indices into the case's steps, in order.
    pub steps: Vec<usize>,
    /// An explicit transaction (BEGIN … COMMIT/ROLLBACK) rather than one autocommit statement.
    pub explicit: bool,
    /// Whether it committed in the actual schedule.
    pub committed: bool,
    /// When its ending statement resumed from a block together with others, the group
    /// ([`txhunt_model::StepRecord::resumed_together`]): its place among the group's units is
    /// not known for sure.
    pub tie: Option<usize>,
}

/// The transactions of `history` in First-Commit/Rollback-First-Scheduled order, or `None`
/// when the history cannot be judged (a statement hung or never completed: its effect is
/// unknown; or, where `savepoints_open_txns` (SQLite), a savepoint ran after its transaction
/// was aborted, see `savepoint_after`). Elsewhere a savepoint statement outside a
/// transaction is an error or a no-op (PostgreSQL refuses it, MySQL and MariaDB discard it at
/// once) and is left out.
///
/// Statements the concurrency control refused (deadlock, lock-timeout, serialization) had no
/// effect and are left out. Statements of an explicit transaction that ran after an error
/// aborted it ran in autocommit
/// mode (txhunt still submits them, as DT² does); each is its own unit at its completion. A
/// transaction that never ended is rolled back when its session closes: it is placed last,
/// not committed.
pub fn fcrfs(case: &TestCase, history: &History, savepoints_open_txns: bool) -> Option<Vec<Unit>> {
    let unknown = |o: &Outcome| matches!(o, Outcome::Hang { .. } | Outcome::NeverCompleted);
    if history.steps.iter().any(|s| unknown(&s.outcome)) {
        return None;
    }
    // A statement the concurrency control refused (deadlock victim, lock not granted,
    // serialization failure) had no effect; the serial schedule leaves it out rather than
    // re-running it without the conflict.
    let refused = |s: usize| matches!(&history.steps[s].outcome, Outcome::Error(e) if matches!(e.class, ErrorClass::Deadlock | ErrorClass::LockTimeout | ErrorClass::Serialization));
    let end_of = |s: usize| history.steps[s].completed;
    let ran = |s: usize| end_of(s).filter(|_| !refused(s));
    let is_data = |s: usize| {
        !matches!(
            case.steps[s].stmt.kind(),
            StmtKind::Begin | StmtKind::Commit | StmtKind::Rollback
        )
    };
    let mut ordered: Vec<(usize, Unit)> = Vec::new();
    for txn in case.txns() {
        let status = &history.txns[txn.id].status;
        if !txn.explicit {
            let s = txn.steps[0];
            if let Some(end) = ran(s) {
                let unit = Unit {
                    label: txn.label.clone(),
                    steps: vec![s],
                    explicit: false,
                    committed: history.steps[s].outcome.succeeded(),
                    tie: history.steps[s].resumed_together,
                };
                ordered.push((end, unit));
            }
            continue;
        }
        let aborted_at = match status {
            TxnStatus::Aborted { step, .. } => Some(*step),
            _ => None,
        };
        if let Some(abort) = aborted_at {
            if savepoints_open_txns && savepoint_after(case, &txn.steps, abort) {
                return None;
            }
            let later_data = |s: usize| s > abort && is_data(s) && !is_savepoint(case, s);
            for &later in txn.steps.iter().filter(|&&s| later_data(s)) {
                if let Some(end) = ran(later) {
                    let unit = Unit {
                        label: format!("{}+", txn.label),
                        steps: vec![later],
                        explicit: false,
                        committed: history.steps[later].outcome.succeeded(),
                        tie: history.steps[later].resumed_together,
                    };
                    ordered.push((end, unit));
                }
            }
        }
        let body: Vec<usize> = txn
            .steps
            .iter()
            .copied()
            .filter(|&s| aborted_at.is_none_or(|a| s <= a) && is_data(s) && ran(s).is_some())
            .collect();
        let last = txn.steps[txn.steps.len() - 1];
        let end_step = match status {
            TxnStatus::Aborted { step, .. } => Some(*step),
            TxnStatus::Committed | TxnStatus::RolledBack => Some(last),
            TxnStatus::Unfinished => None,
        };
        let end = end_step.and_then(end_of).unwrap_or(usize::MAX);
        let tie = end_step.and_then(|s| history.steps[s].resumed_together);
        let committed = status.committed();
        let unit = Unit {
            label: txn.label.clone(),
            steps: body,
            explicit: true,
            committed,
            tie,
        };
        ordered.push((end, unit));
    }
    ordered.sort_by_key(|(end, _)| *end);
    Some(ordered.into_iter().map(|(_, unit)| unit).collect())
}

/// Whether a savepoint statement of this transaction ran after the error at `step` aborted
/// it: outside a transaction, whether it opens one is up to the DBMS (SQLite's SAVEPOINT
/// does, MySQL's is a no-op), so the statements after it have no transaction the case
/// describes and the history is not judged.
fn savepoint_after(case: &TestCase, steps: &[usize], step: usize) -> bool {
    steps.iter().any(|&s| s > step && is_savepoint(case, s))
}

/// Whether step `s` is SAVEPOINT, ROLLBACK TO or RELEASE.
fn is_savepoint(case: &TestCase, s: usize) -> bool {
    matches!(
        case.steps[s].stmt.kind(),
        StmtKind::Savepoint | StmtKind::RollbackTo | StmtKind::Release
    )
}

/// A serial case: `case`'s setup, then `units` one after another on one session, and for
/// every serial step the original step it re-runs (`None` for BEGIN/COMMIT/ROLLBACK added).
pub struct Serial {
    /// The case to run.
    pub case: TestCase,
    /// For each of its steps, the original step.
    pub origin: Vec<Option<usize>>,
}

/// tx-WSS: every transaction whole — committed ones end with COMMIT, aborted ones run and
/// end with ROLLBACK.
pub fn tx_serial(case: &TestCase, units: &[Unit]) -> Serial {
    let mut serial = Serial::empty(case);
    for unit in units {
        if unit.explicit {
            serial.push_control("BEGIN");
        }
        for &s in &unit.steps {
            serial.push_original(case, s);
        }
        if unit.explicit {
            serial.push_control(if unit.committed { "COMMIT" } else { "ROLLBACK" });
        }
    }
    serial
}

/// stmt-WSS: the data statements of committed transactions as autocommit statements; `None`
/// when a transaction uses savepoints, which cannot run outside a transaction (paper 001
/// §2.2).
pub fn stmt_serial(case: &TestCase, units: &[Unit]) -> Option<Serial> {
    if (0..case.steps.len()).any(|s| is_savepoint(case, s)) {
        return None;
    }
    let mut serial = Serial::empty(case);
    for unit in units.iter().filter(|u| u.committed) {
        for &s in &unit.steps {
            serial.push_original(case, s);
        }
    }
    Some(serial)
}

impl Serial {
    fn empty(case: &TestCase) -> Self {
        let mut serial_case = TestCase {
            init: case.init.clone(),
            ..TestCase::default()
        };
        serial_case.header.isolation = case.header.isolation.clone();
        serial_case.header.mode = case.header.mode;
        // A transaction replayed to be rolled back may fail earlier than it did concurrently;
        // what it has left must not then run in autocommit and change the state.
        serial_case.header.skip_after_abort = true;
        Serial {
            case: serial_case,
            origin: Vec::new(),
        }
    }

    fn push_control(&mut self, sql: &str) {
        self.case.steps.push(Step {
            session: "t1".into(),
            stmt: txhunt_model::Stmt::new(sql),
        });
        self.origin.push(None);
    }

    fn push_original(&mut self, case: &TestCase, s: usize) {
        let mut stmt = case.steps[s].stmt.clone();
        stmt.expect = None;
        self.case.steps.push(Step {
            session: "t1".into(),
            stmt,
        });
        self.origin.push(Some(s));
    }
}
