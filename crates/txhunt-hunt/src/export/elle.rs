//! Elle's rw-register histories, in the JSON form elle-cli reads
//! (`elle-cli --model rw-register FILE.json`).
//!
//! Sources: elle-cli's README (section "rw-register" and its example history),
//! `histories/elle/rw-register.json` and `read-json-history` in `src/elle_cli/cli.clj`
//! (github.com/ligurio/elle-cli), and Elle's `src/elle/rw_register.clj` and `src/elle/txn.clj`
//! (github.com/jepsen-io/elle).
//!
//! The file is one JSON array of operation objects, `{"type", "f", "value", "process",
//! "index"}`, one per line. elle-cli turns `type`, `f` and each micro-op's first element into
//! keywords; everything else stays as JSON gives it.
//!
//! - One operation per transaction: an `invoke` at the transaction's first event in the
//!   schedule, and its completion at its last: `ok` for a committed transaction, `fail` for
//!   one that definitely did not commit (rolled back or aborted), `info` for one that never
//!   ended (Jepsen's "indeterminate"). So real-time order is the schedule's. `f` is `"txn"`,
//!   `process` the session's number, `index` counts from 0 along the file.
//! - `value` is the list of micro-ops, `["r", key, value]` and `["w", key, value]`. The
//!   `invoke` (and a `fail` or `info`, which report no results) has `null` for every read's
//!   value; the `ok` has the values read.
//! - Keys are strings `"table:rid"` (the hidden row id): elle-cli accepts string keys (its
//!   rw-register example uses `"x"`) and Elle requires every key to be of one type.
//! - Values are [`Version::to_column`] numbers, integers of one type (Elle refuses a mix of
//!   integer types: `assert-type-sanity` in `txn.clj`). A step's version is positive, the
//!   setup's negative (Elle takes a value no operation wrote for an initial state: `wr-graph`
//!   in `rw_register.clj`), and a DELETE writes the deleting step's number (the tombstone of
//!   the module `export`). A read of a version no instrumented statement wrote is `null`:
//!   Elle's initial state of every key.
//! - Predicates cannot be expressed: rw-register has keys and values only.

use super::{MicroOp, Transaction};
use serde::Serialize;
use txhunt_model::access::Version;
use txhunt_model::TxnStatus;

/// One operation of the history.
#[derive(Serialize)]
struct Op {
    #[serde(rename = "type")]
    kind: &'static str,
    f: &'static str,
    value: Vec<(&'static str, String, Option<i64>)>,
    process: usize,
    index: usize,
}

/// `txns` as an Elle history.
pub(super) fn history(txns: &[Transaction<'_>]) -> String {
    let mut events: Vec<(usize, bool, &Transaction<'_>)> = (txns.iter())
        .flat_map(|t| [(t.span.0, false, t), (t.span.1, true, t)])
        .collect();
    events.sort_unstable_by_key(|&(at, completion, t)| (at, completion, t.id));
    let lines: Vec<String> = (events.into_iter().enumerate())
        .map(|(index, (_, completion, t))| {
            let kind = match (completion, t.status) {
                (false, _) => "invoke",
                (true, TxnStatus::Committed) => "ok",
                (true, TxnStatus::Unfinished) => "info",
                (true, _) => "fail",
            };
            let op = Op {
                kind,
                f: "txn",
                value: micro_ops(t, kind == "ok"),
                process: t.session,
                index,
            };
            serde_json::to_string(&op).expect("plain data serializes")
        })
        .collect();
    format!("[{}]\n", lines.join(",\n"))
}

/// `t`'s micro-ops, with the values read if `observed`.
fn micro_ops(t: &Transaction<'_>, observed: bool) -> Vec<(&'static str, String, Option<i64>)> {
    (t.ops.iter())
        .map(|&op| {
            let value = match op {
                MicroOp::Read(_, version) => version.filter(|_| observed).map(Version::to_column),
                MicroOp::Write(_, step) => Some(Version::Step(step).to_column()),
            };
            (op.letter(), op.row().to_string(), value)
        })
        .collect()
}
