//! What one execution of a test case on one target did.

use crate::access::{Accesses, TableMeta, Write};
use crate::isolation::Isolation;
use crate::outcome::Outcome;
use crate::state::DbState;
use serde::{Deserialize, Serialize};

/// The observation of one execution: every statement's outcome, the actual schedule, the
/// transactions' fates and the final state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct History {
    /// The target it ran on (e.g. `sqlite`).
    pub target: String,
    /// The isolation level every session ran at.
    pub isolation: Isolation,
    /// The outcome of every setup statement, in order.
    pub init: Vec<Outcome>,
    /// When the case ran instrumented: per setup statement, the rows it wrote (their row ids
    /// and columns: the setup versions' contents).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub init_writes: Vec<Vec<Write>>,
    /// One record per step of the test case, indexed like [`crate::TestCase::steps`].
    pub steps: Vec<StepRecord>,
    /// The actual schedule: what happened, in the order it happened.
    pub schedule: Vec<Event>,
    /// One record per transaction, indexed like [`crate::TestCase::txns`].
    pub txns: Vec<TxnRecord>,
    /// The committed database state at the end, read through a separate session.
    pub final_state: Option<DbState>,
    /// Why the final state could not be read, if it could not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_state_error: Option<String>,
    /// The tables, when the case ran instrumented: their user-visible columns and keys.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tables: Vec<TableMeta>,
}

/// What happened to one step of the test case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepRecord {
    /// Its position among submitted statements (0-based), if it was submitted.
    pub submitted: Option<usize>,
    /// Its position among completed statements (0-based), if it completed.
    pub completed: Option<usize>,
    /// Whether it waited on a lock when submitted.
    pub blocked: bool,
    /// How it ended.
    pub outcome: Outcome,
    /// Set when it resumed from a block together with other statements that ended the same
    /// way (found ended at the same check, all failed or all succeeded): the group's number.
    /// Their `completed` order is the order their results reached txhunt's session threads,
    /// which need not be the order the DBMS ran them in. Failures found with successes are
    /// not grouped with them: a failure released its locks before a waiter it unblocked ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resumed_together: Option<usize>,
    /// The row versions it read and wrote, when the case ran instrumented ([`crate::access`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accesses: Option<Accesses>,
}

/// One entry of the actual schedule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum Event {
    /// The step was submitted and waits on a lock (a block point).
    Blocked {
        /// Index into the case's steps.
        step: usize,
    },
    /// The step completed (after blocking first, if a `Blocked` event for it came earlier).
    Completed {
        /// Index into the case's steps.
        step: usize,
    },
    /// txhunt sent a ROLLBACK to end a transaction the DBMS aborted but left open (paper 001
    /// §5.3.2), on the transaction's session.
    Rollback {
        /// Index into the case's transactions.
        txn: usize,
        /// How that ROLLBACK ended.
        outcome: Outcome,
    },
}

/// The fate of one transaction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TxnRecord {
    /// The transaction's label (see [`crate::Txn::label`]).
    pub label: String,
    /// How it ended.
    pub status: TxnStatus,
}

/// How a transaction ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "kebab-case")]
pub enum TxnStatus {
    /// Its COMMIT (or its only, autocommit, statement) succeeded.
    Committed,
    /// It ended with a successful ROLLBACK of its own.
    RolledBack,
    /// An error aborted it.
    Aborted {
        /// The step whose error aborted it.
        step: usize,
        /// Whether txhunt had to send a ROLLBACK to end it (otherwise the DBMS ended it, or it
        /// was an autocommit statement).
        rollback_sent: bool,
    },
    /// It never ended (no COMMIT/ROLLBACK in the case, or a statement never completed).
    Unfinished,
}

impl TxnStatus {
    /// Whether the transaction's writes are meant to be durable.
    pub fn committed(&self) -> bool {
        matches!(self, TxnStatus::Committed)
    }
}
