//! The transactions a run actually executed: the case's ([`TestCase::txns`]), except that
//! * after an error aborted a transaction, each of its later statements that succeeded ran on
//!   its own, in autocommit mode, and committed (`t2+`), as the WSS oracle's units say too;
//! * the writes of the statements a `ROLLBACK TO SAVEPOINT` undid belong to an aborted
//!   transaction of their own (`t2 (rolled back to a savepoint)`): their versions never became
//!   part of the committed state, and a committed transaction that read one read an aborted
//!   write (G1a). Their reads stay the transaction's: it did read what it read.
//!
//! Where a SAVEPOINT after the abort opened a new transaction (SQLite), the first rule does
//! not hold; such runs are not judged ([`savepoint_after_abort`]).

use txhunt_model::{History, StmtKind, TestCase, TxnStatus};

/// The run's transactions.
#[derive(Debug, Clone)]
pub struct Transactions {
    /// Per step, its transaction (the one its reads belong to).
    pub of_step: Vec<usize>,
    /// Per step, the transaction its writes belong to: its own, except for a statement a
    /// savepoint rollback undid.
    pub writer_of: Vec<usize>,
    /// Per transaction, its label (`t2`, or `t2+` for a statement run on its own).
    pub labels: Vec<String>,
    /// Per transaction, whether it committed.
    pub committed: Vec<bool>,
    /// Per transaction, whether it was aborted or rolled back.
    pub aborted: Vec<bool>,
    /// Per transaction, the case's transaction it is part of: itself, or for the writes a
    /// savepoint rollback undid, the transaction that made them.
    pub owner: Vec<usize>,
}

impl Transactions {
    /// Whether transactions `a` and `b` are parts of one transaction of the case (a
    /// transaction and the writes of it a savepoint rollback undid).
    pub fn same(&self, a: usize, b: usize) -> bool {
        self.owner[a] == self.owner[b]
    }
}

impl Transactions {
    /// The transactions of `history`, a run of `case`.
    pub fn of(case: &TestCase, history: &History) -> Transactions {
        let txns = case.txns();
        let mut of_step = case.txn_of_steps(&txns);
        let status = |t: usize| history.txns.get(t).map(|r| r.status.clone());
        let mut labels: Vec<String> = txns.iter().map(|t| t.label.clone()).collect();
        let mut committed: Vec<bool> = (0..txns.len())
            .map(|t| status(t).is_some_and(|s| s.committed()))
            .collect();
        let mut aborted: Vec<bool> = (0..txns.len())
            .map(|t| {
                matches!(
                    status(t),
                    Some(TxnStatus::Aborted { .. } | TxnStatus::RolledBack)
                )
            })
            .collect();
        for (t, txn) in txns.iter().enumerate() {
            let Some(TxnStatus::Aborted { step, .. }) = status(t) else {
                continue;
            };
            for &s in txn.steps.iter().filter(|&&s| s > step) {
                let stmt = &case.steps[s].stmt;
                if stmt.kind().is_transaction_control() || !history.steps[s].outcome.succeeded() {
                    continue;
                }
                of_step[s] = labels.len();
                labels.push(format!("{}+", txn.label));
                committed.push(true);
                aborted.push(false);
            }
        }
        let mut writer_of = of_step.clone();
        let mut owner: Vec<usize> = (0..labels.len()).collect();
        for txn in &txns {
            let undone = undone_by_savepoints(case, history, &txn.steps);
            if undone.is_empty() {
                continue;
            }
            let me = labels.len();
            owner.push(txn.id);
            labels.push(format!("{} (rolled back to a savepoint)", txn.label));
            committed.push(false);
            aborted.push(true);
            for s in undone {
                writer_of[s] = me;
            }
        }
        Transactions {
            of_step,
            writer_of,
            owner,
            labels,
            committed,
            aborted,
        }
    }
}

/// The first SAVEPOINT that ran after an error aborted its transaction, on a DBMS where a
/// savepoint outside a transaction opens one (SQLite): the statements after it then ran in a
/// transaction of their own, which [`Transactions::of`] would take for statements that each
/// committed on its own; which of them committed the history does not say.
pub fn savepoint_after_abort(case: &TestCase, history: &History) -> Option<usize> {
    case.txns().iter().find_map(|txn| {
        let TxnStatus::Aborted { step, .. } = history.txns.get(txn.id)?.status else {
            return None;
        };
        (txn.steps.iter().copied()).find(|&s| {
            s > step
                && case.steps[s].stmt.kind() == StmtKind::Savepoint
                && history.steps[s].outcome.succeeded()
        })
    })
}

/// The steps among `steps` (one transaction's, in order) whose effects a later successful
/// `ROLLBACK TO SAVEPOINT` of the transaction undid.
fn undone_by_savepoints(case: &TestCase, history: &History, steps: &[usize]) -> Vec<usize> {
    let name = |s: usize| {
        let sql = case.steps[s].stmt.sql.trim().trim_end_matches(';');
        sql.rsplit(char::is_whitespace).next().map(|n| {
            n.trim_matches(|c| c == '"' || c == '`')
                .to_ascii_lowercase()
        })
    };
    // The savepoints in force: name and position in `steps` where each was set.
    let mut savepoints: Vec<(Option<String>, usize)> = Vec::new();
    let mut undone = Vec::new();
    for (at, &s) in steps.iter().enumerate() {
        if !history.steps[s].outcome.succeeded() {
            continue;
        }
        match case.steps[s].stmt.kind() {
            StmtKind::Savepoint => savepoints.push((name(s), at)),
            StmtKind::Release => {
                if let Some(i) = savepoints.iter().rposition(|(n, _)| *n == name(s)) {
                    savepoints.truncate(i);
                }
            }
            StmtKind::RollbackTo => {
                if let Some(i) = savepoints.iter().rposition(|(n, _)| *n == name(s)) {
                    let set_at = savepoints[i].1;
                    savepoints.truncate(i + 1);
                    undone.extend_from_slice(&steps[set_at + 1..at]);
                }
            }
            _ => {}
        }
    }
    undone.sort_unstable();
    undone.dedup();
    undone.retain(|&s| !case.steps[s].stmt.kind().is_transaction_control());
    undone
}
