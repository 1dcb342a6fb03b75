//! The transactions a run actually executed: the case's ([`TestCase::txns`]), except that
//! after an error aborted a transaction, each of its later statements that succeeded ran on
//! its own, in autocommit mode, and committed (`t2+`), as the WSS oracle's units say too.

use txhunt_model::{History, TestCase, TxnStatus};

/// The run's transactions.
#[derive(Debug, Clone)]
pub struct Transactions {
    /// Per step, its transaction.
    pub of_step: Vec<usize>,
    /// Per transaction, its label (`t2`, or `t2+` for a statement run on its own).
    pub labels: Vec<String>,
    /// Per transaction, whether it committed.
    pub committed: Vec<bool>,
    /// Per transaction, whether it was aborted or rolled back.
    pub aborted: Vec<bool>,
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
        Transactions {
            of_step,
            labels,
            committed,
            aborted,
        }
    }
}
