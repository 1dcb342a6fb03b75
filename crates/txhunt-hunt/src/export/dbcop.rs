//! dbcop's JSON histories, in the form `dbcop verify --input-dir DIR` reads from each `.json`
//! file of a directory.
//!
//! Sources (github.com/rnbguy/dbcop, the maintained rewrite; the OOPSLA 2019 version kept
//! histories in bincode): `docs/history-format.md` ("Standalone Format (CLI)"), the serde
//! types in `crates/core/src/history/raw/types.rs` and `crates/testgen/src/generator.rs`
//! (the `History` wrapper `verify` deserializes), and the validation in
//! `crates/core/src/history/raw/mod.rs`.
//!
//! - The file is `{"params", "info", "start", "end", "data"}`. `params` is the generator's
//!   metadata (`id` 0, `n_node` sessions, `n_variable` keys, `n_transaction` the most
//!   transactions of a session, `n_event` the most events of a transaction); `start` and `end`
//!   are RFC 3339 times the checker does not use: txhunt records none, so both are the Unix
//!   epoch. `data` is the raw history (what dbcop's WASM API takes alone).
//! - `data` has one array per session, in order of first appearance in the case; each holds
//!   the session's transactions in order, `{"events": [...], "committed": bool}`; an event is
//!   `{"Read": {"variable", "version"}}` or `{"Write": {"variable", "version"}}`.
//! - `committed` is true for a committed transaction only; a rolled-back, aborted or
//!   never-ended one is kept with `false` (dbcop rejects reads of its writes).
//! - Variables are the rows numbered from 0 in row order (table, then row id). Versions are
//!   non-negative integers: a step's writes have its
//!   [`txhunt_model::access::Version::to_column`] number, positive, and a DELETE the deleting
//!   step's number (the tombstone of the module `export`). dbcop requires a version to be
//!   written once per variable (`get_all_writes`), which these are, and every read to name a
//!   write or the initial state: a read of a setup's version, or of one no instrumented
//!   statement wrote, has version `null` (dbcop's uninitialized variable, read from its root
//!   transaction). Predicates cannot be expressed.

use super::{key_numbers, read_number, step_number, MicroOp, Transaction};
use serde::Serialize;
use txhunt_model::{History, TestCase};

/// The wrapper `dbcop verify` deserializes.
#[derive(Serialize)]
struct DbcopHistory {
    params: Params,
    info: String,
    start: &'static str,
    end: &'static str,
    data: Vec<Vec<DbcopTxn>>,
}

/// The generator's metadata.
#[derive(Serialize)]
struct Params {
    id: usize,
    n_node: usize,
    n_variable: usize,
    n_transaction: usize,
    n_event: usize,
}

#[derive(Serialize)]
struct DbcopTxn {
    events: Vec<DbcopEvent>,
    committed: bool,
}

#[derive(Serialize)]
enum DbcopEvent {
    Read { variable: u64, version: Option<u64> },
    Write { variable: u64, version: u64 },
}

/// The time `start` and `end` give.
const EPOCH: &str = "1970-01-01T00:00:00Z";

/// `txns`, of `history`, an execution of `case`, as a dbcop history.
pub(super) fn history(txns: &[Transaction<'_>], case: &TestCase, history: &History) -> String {
    let keys = key_numbers(txns);
    let mut data: Vec<Vec<DbcopTxn>> = case.sessions().iter().map(|_| Vec::new()).collect();
    for t in txns {
        let events = (t.ops.iter())
            .map(|&op| {
                let variable = keys[op.row()];
                match op {
                    MicroOp::Read(_, version) => DbcopEvent::Read {
                        variable,
                        version: read_number(version),
                    },
                    MicroOp::Write(_, step) => DbcopEvent::Write {
                        variable,
                        version: step_number(step),
                    },
                }
            })
            .collect();
        if let Some(session) = data.get_mut(t.session) {
            session.push(DbcopTxn {
                events,
                committed: t.status.committed(),
            });
        }
    }
    let dbcop = DbcopHistory {
        params: Params {
            id: 0,
            n_node: data.len(),
            n_variable: keys.len(),
            n_transaction: data.iter().map(Vec::len).max().unwrap_or(0),
            n_event: txns.iter().map(|t| t.ops.len()).max().unwrap_or(0),
        },
        info: format!(
            "txhunt: {} on {} at {}",
            case.header.id.as_deref().unwrap_or("case"),
            history.target,
            history.isolation.name()
        ),
        start: EPOCH,
        end: EPOCH,
        data,
    };
    serde_json::to_string_pretty(&dbcop).expect("plain data serializes") + "\n"
}
