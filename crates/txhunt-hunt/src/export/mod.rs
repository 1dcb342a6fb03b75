//! Exporting an instrumented run's read/write history ([`txhunt_model::access`]): in txhunt's
//! own JSON form, or as the input of an external isolation checker: Elle, Plume or dbcop (the
//! private modules `elle`, `plume` and `dbcop` document each format, and the source it follows).
//!
//! The checkers see the same transactions, built here once:
//!
//! - **Transactions** are the case's ([`TestCase::txns`]: an explicit block, or one autocommit
//!   statement) that read or wrote at least one row; the others constrain nothing. Each keeps
//!   its session (numbered in order of first appearance, [`TestCase::sessions`]) and its fate
//!   ([`txhunt_model::TxnStatus`]); each format says which fates it can express.
//! - **Micro-ops**, in the order the transaction's steps ran: every row version a step read,
//!   in the order it returned them, then every row it wrote. An UPDATE or DELETE first reads
//!   the version it replaces ([`Write::overwrote`]: the engine found that version to replace
//!   it), then writes; an INSERT only writes.
//! - **Values**: a write by step `s` installs [`Version::Step`]`(s)`, named by its
//!   [`Version::to_column`] number. A DELETE is a write of a tombstone: the deleting step's own
//!   number. That is unique to the deleting write, since one statement writes a row at most
//!   once, and no read returns it, since a deleted row is not read.
//! - **What cannot be expressed**: the checkers know keys and values, not predicates, so
//!   [`Accesses::predicates`] (and a read that found no row at all) are left out, as is what
//!   instrumentation could not track ([`Accesses::untracked`]); the `json` form has both.

mod dbcop;
mod elle;
mod plume;

use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;
use txhunt_model::access::{
    Accesses, Predicate, Read, RowId, TableMeta, Version, Write, WriteKind,
};
use txhunt_model::{Event, History, Isolation, TestCase, TxnStatus};

/// A format a read/write history can be exported in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HistoryFormat {
    /// txhunt's own JSON: the transactions and every executed step with its row accesses.
    Json,
    /// Elle's rw-register history, in the JSON form elle-cli reads: an `invoke` and a completion
    /// per transaction, keys `"table:rid"`, values version numbers.
    Elle,
    /// Plume's text history: one `r(key,value,session,txn)` or `w(…)` line per micro-op.
    Plume,
    /// dbcop's JSON history, as `dbcop verify` reads it: sessions of transactions of read and
    /// write events.
    Dbcop,
}

impl HistoryFormat {
    /// Every format, in the order their names are listed.
    pub const ALL: [HistoryFormat; 4] = [
        HistoryFormat::Json,
        HistoryFormat::Elle,
        HistoryFormat::Plume,
        HistoryFormat::Dbcop,
    ];

    /// The format's name, as [`FromStr`] accepts it.
    pub fn name(self) -> &'static str {
        match self {
            HistoryFormat::Json => "json",
            HistoryFormat::Elle => "elle",
            HistoryFormat::Plume => "plume",
            HistoryFormat::Dbcop => "dbcop",
        }
    }

    /// The file-name ending for an exported history, chosen so that the format's tool reads
    /// it: elle-cli picks its reader by the `.json` ending, `dbcop verify` reads the `.json`
    /// files of a directory (so keep dbcop's exports in a directory of their own), Plume reads
    /// any text file.
    pub fn extension(self) -> &'static str {
        match self {
            HistoryFormat::Json => "history.json",
            HistoryFormat::Elle => "elle.json",
            HistoryFormat::Plume => "plume.txt",
            HistoryFormat::Dbcop => "dbcop.json",
        }
    }
}

impl FromStr for HistoryFormat {
    type Err = UnknownFormat;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        HistoryFormat::ALL
            .into_iter()
            .find(|format| format.name() == name)
            .ok_or_else(|| UnknownFormat(name.to_string()))
    }
}

/// A format name that is not one of [`HistoryFormat::ALL`]'s.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownFormat(String);

impl fmt::Display for UnknownFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let accepted: Vec<&str> = HistoryFormat::ALL.iter().map(|f| f.name()).collect();
        write!(
            f,
            "unknown history format '{}'; accepted: {}",
            self.0,
            accepted.join(", ")
        )
    }
}

impl std::error::Error for UnknownFormat {}

/// Why a history cannot be exported (it was not recorded instrumented).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the history has no read/write sets: run the case instrumented")]
pub struct NotInstrumented;

/// `history`, an execution of `case`, in `format`.
pub fn export(
    format: HistoryFormat,
    case: &TestCase,
    history: &History,
) -> Result<String, NotInstrumented> {
    if history.steps.iter().any(|step| step.accesses.is_none()) {
        return Err(NotInstrumented);
    }
    Ok(match format {
        HistoryFormat::Json => own_json(case, history),
        HistoryFormat::Elle => elle::history(&transactions(case, history)),
        HistoryFormat::Plume => plume::history(&transactions(case, history)),
        HistoryFormat::Dbcop => dbcop::history(&transactions(case, history), case, history),
    })
}

/// Writes `history`, an execution of `case`, in `format` to `stem` plus the format's
/// [`HistoryFormat::extension`]; the file's path.
pub fn write(
    stem: &std::path::Path,
    format: HistoryFormat,
    case: &TestCase,
    history: &History,
) -> std::io::Result<std::path::PathBuf> {
    let text = export(format, case, history).map_err(std::io::Error::other)?;
    let path = std::path::PathBuf::from(format!("{}.{}", stem.display(), format.extension()));
    crate::store::write_whole(&path, text.as_bytes())?;
    Ok(path)
}

/// txhunt's own JSON form.
#[derive(Serialize)]
struct OwnHistory<'a> {
    target: &'a str,
    isolation: Isolation,
    transactions: Vec<OwnTxn<'a>>,
    /// The executed steps, in the order they completed.
    steps: Vec<OwnStep<'a>>,
    tables: &'a [TableMeta],
}

#[derive(Serialize)]
struct OwnTxn<'a> {
    label: &'a str,
    session: &'a str,
    #[serde(flatten)]
    status: &'a TxnStatus,
}

#[derive(Serialize)]
struct OwnStep<'a> {
    /// Index into the case's steps.
    step: usize,
    /// The label of its transaction.
    txn: &'a str,
    sql: &'a str,
    reads: &'a [Read],
    writes: &'a [Write],
    predicates: &'a [Predicate],
    untracked: &'a [String],
}

fn own_json(case: &TestCase, history: &History) -> String {
    let txns = case.txns();
    let txn_of = case.txn_of_steps(&txns);
    let mut executed: Vec<(usize, usize, &Accesses)> = (history.steps.iter().enumerate())
        .filter_map(|(i, s)| Some((s.completed?, i, s.accesses.as_ref()?)))
        .collect();
    executed.sort_unstable_by_key(|&(completed, ..)| completed);
    let own = OwnHistory {
        target: &history.target,
        isolation: history.isolation,
        transactions: (txns.iter().zip(&history.txns))
            .map(|(txn, record)| OwnTxn {
                label: &txn.label,
                session: &txn.session,
                status: &record.status,
            })
            .collect(),
        steps: executed
            .into_iter()
            .filter_map(|(_, step, accesses)| {
                Some(OwnStep {
                    step,
                    txn: &txns.get(*txn_of.get(step)?)?.label,
                    sql: &case.steps.get(step)?.stmt.sql,
                    reads: &accesses.reads,
                    writes: &accesses.writes,
                    predicates: &accesses.predicates,
                    untracked: &accesses.untracked,
                })
            })
            .collect(),
        tables: &history.tables,
    };
    serde_json::to_string_pretty(&own).expect("plain data serializes") + "\n"
}

/// One row access of a transaction, as the checkers see it.
#[derive(Clone, Copy)]
enum MicroOp<'a> {
    /// A read of this version of the row (`None`: a version no instrumented statement wrote).
    Read(&'a RowId, Option<Version>),
    /// A write of the row by this step (a DELETE's tombstone included).
    Write(&'a RowId, usize),
}

impl<'a> MicroOp<'a> {
    /// The row read or written.
    fn row(self) -> &'a RowId {
        match self {
            MicroOp::Read(row, _) | MicroOp::Write(row, _) => row,
        }
    }

    /// `r` or `w`, as Elle and Plume spell the two.
    fn letter(self) -> &'static str {
        match self {
            MicroOp::Read(..) => "r",
            MicroOp::Write(..) => "w",
        }
    }
}

/// A transaction that read or wrote rows, as the checkers see it.
struct Transaction<'a> {
    /// Index into [`TestCase::txns`]: unique, and increasing along each session.
    id: usize,
    /// Index into [`TestCase::sessions`].
    session: usize,
    status: &'a TxnStatus,
    ops: Vec<MicroOp<'a>>,
    /// The positions in [`History::schedule`] of its first and last event.
    span: (usize, usize),
}

/// The case's transactions that read or wrote rows, in the order of their first statement.
fn transactions<'a>(case: &TestCase, history: &'a History) -> Vec<Transaction<'a>> {
    let txns = case.txns();
    let txn_of = case.txn_of_steps(&txns);
    let sessions = case.sessions();
    let mut spans: Vec<Option<(usize, usize)>> = vec![None; txns.len()];
    for (at, event) in history.schedule.iter().enumerate() {
        let txn = match event {
            Event::Blocked { step } | Event::Completed { step } => txn_of.get(*step).copied(),
            Event::Rollback { txn, .. } => Some(*txn),
        };
        if let Some(span) = txn.and_then(|txn| spans.get_mut(txn)) {
            *span = Some((span.map_or(at, |(first, _)| first), at));
        }
    }
    (txns.iter().zip(&history.txns).zip(spans))
        .filter_map(|((txn, record), span)| {
            let ops: Vec<MicroOp<'a>> = (txn.steps.iter())
                .filter_map(|&s| Some((s, history.steps.get(s)?.accesses.as_ref()?)))
                .flat_map(|(s, accesses)| micro_ops(s, accesses))
                .collect();
            if ops.is_empty() {
                return None;
            }
            Some(Transaction {
                id: txn.id,
                session: sessions.iter().position(|s| *s == txn.session)?,
                status: &record.status,
                ops,
                span: span?,
            })
        })
        .collect()
}

/// What step `step` read and wrote, in order (see the module documentation).
fn micro_ops(step: usize, accesses: &Accesses) -> impl Iterator<Item = MicroOp<'_>> {
    let reads = (accesses.reads.iter()).map(|read| MicroOp::Read(&read.row, read.version));
    let writes = accesses.writes.iter().flat_map(move |write| {
        let replaced =
            (write.kind != WriteKind::Insert).then_some(MicroOp::Read(&write.row, write.overwrote));
        replaced
            .into_iter()
            .chain([MicroOp::Write(&write.row, step)])
    });
    reads.chain(writes)
}

/// The rows `txns` touch, numbered from 0 in row order (table, then row id), for the formats
/// whose keys are non-negative integers (Plume, dbcop).
fn key_numbers<'a>(txns: &[Transaction<'a>]) -> BTreeMap<&'a RowId, u64> {
    let mut keys: BTreeMap<&'a RowId, u64> = (txns.iter())
        .flat_map(|t| t.ops.iter().map(|op| (op.row(), 0)))
        .collect();
    for (number, n) in keys.values_mut().zip(0..) {
        *number = n;
    }
    keys
}

/// The value of step `step`'s writes where values are non-negative (Plume, dbcop): its
/// version's [`Version::to_column`] number, which is positive.
fn step_number(step: usize) -> u64 {
    Version::Step(step).to_column().unsigned_abs()
}

/// The value a read of `version` returned where values are non-negative (Plume, dbcop):
/// `None` for the initial state, i.e. a version the setup wrote (it ran to completion before
/// any step) or one no instrumented statement wrote; a step's version by [`step_number`].
fn read_number(version: Option<Version>) -> Option<u64> {
    match version {
        Some(Version::Step(step)) => Some(step_number(step)),
        Some(Version::Init(_)) | None => None,
    }
}

/// A SQLite READ UNCOMMITTED history of steps that each completed in turn with `outcome(s)`
/// and recorded `accesses[s]`, for tests that build histories by hand (schedule and
/// transactions left to the test).
#[cfg(test)]
pub(crate) fn recorded(
    accesses: Vec<txhunt_model::access::Accesses>,
    outcome: impl Fn(usize) -> txhunt_model::Outcome,
) -> History {
    use txhunt_model::{Isolation, Outcome, StepRecord};
    // Built from JSON so that fields added to `History` later keep their defaults.
    let mut history: History = serde_json::from_value(serde_json::json!({
        "target": "sqlite",
        "isolation": Isolation::ReadUncommitted,
        "init": [Outcome::Ok, Outcome::Ok],
        "steps": [],
        "schedule": [],
        "txns": [],
    }))
    .expect("a history parses");
    history.steps = (accesses.into_iter().enumerate())
        .map(|(s, accesses)| StepRecord {
            submitted: Some(s),
            completed: Some(s),
            blocked: false,
            outcome: outcome(s),
            resumed_together: None,
            accesses: Some(accesses),
        })
        .collect();
    history
}
