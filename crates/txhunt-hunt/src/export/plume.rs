//! Plume's text histories (`Plume -t PLUME -i <level> FILE`).
//!
//! Source: `TextHistoryLoader` in `Plume/src/main/java/loader/TextHistoryLoader.java` and the
//! checker `Plume/src/main/java/alg/Plume.java` (github.com/dracoooooo/Plume). Every line must
//! match `([rw])\((\d++),(\d++),(\d++),(-?\d++)\)`, so:
//!
//! - one micro-op per line, `r(key,value,session,txn)` or `w(key,value,session,txn)`, with no
//!   spaces, blank lines or comments;
//! - key, value and session are non-negative integers; txn is a non-negative integer, or `-1`
//!   for a write of an aborted transaction (Plume keeps those only to recognize aborted
//!   reads, and ignores the reads of a `-1` line, so none are written).
//!
//! Transactions are numbered globally (Plume looks them up by number alone; a transaction
//! belongs to the session of its first line): the index in the case's transactions. A
//! session's transactions are in the order their lines first appear, which is the session's
//! order; a transaction's lines are in program order. Sessions are numbered in order of first
//! appearance in the case (Plume renumbers them so anyway).
//!
//! Only committed transactions are transactions to Plume: the writes of every other one
//! (rolled back, aborted, never ended) are `-1` lines.
//!
//! Keys are the rows numbered from 0 in row order (table, then row id). Values are 0 for the
//! initial state (Plume's `ZERO`: reads of 0 need no writer and writes of 0 are ignored): a
//! read of a setup's version or of one no instrumented statement wrote. A step's writes have
//! its [`txhunt_model::access::Version::to_column`] number, positive, and a DELETE the
//! deleting step's number (the tombstone of the module `export`). Predicates cannot be
//! expressed.
//!
//! PolySI's `TextHistoryLoader` (github.com/amnore/PolySI) reads the same lines but has no
//! `-1`: drop those lines to check a history with aborted writes there.

use super::{key_numbers, read_number, step_number, MicroOp, Transaction};
use std::fmt::Write as _;

/// `txns` as a Plume text history.
pub(super) fn history(txns: &[Transaction<'_>]) -> String {
    let keys = key_numbers(txns);
    let mut out = String::new();
    for t in txns {
        let committed = t.status.committed();
        let txn = if committed {
            t.id.to_string()
        } else {
            "-1".into()
        };
        for &op in &t.ops {
            let value = match op {
                MicroOp::Read(..) if !committed => continue,
                MicroOp::Read(_, version) => read_number(version).unwrap_or(0),
                MicroOp::Write(_, step) => step_number(step),
            };
            let (letter, key, session) = (op.letter(), keys[op.row()], t.session);
            writeln!(out, "{letter}({key},{value},{session},{txn})").expect("writes to a String");
        }
    }
    out
}
