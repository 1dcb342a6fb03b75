//! Real-time order in a stress run: a transaction that began after another's COMMIT had been
//! answered must see that transaction's writes. Every DBMS txhunt targets is one node whose
//! snapshot (or, with locks, whose read) is taken at the transaction's first statement at the
//! earliest, after BEGIN was sent; a COMMIT already answered is in it. A read of a version
//! that such a transaction had already overwritten is a *stale read*: an anti-dependency
//! (rw) against real time, forbidden at every level (the papers' strict order on one node;
//! Jepsen's "stale read").
//!
//! Times are the client's monotonic clock around each statement: "answered before sent" leaves
//! no room for clock skew or delivery order.

use crate::dsg::{untracked_tables, Dsg, Kind, Transactions};
use crate::invariant::Violation;
use std::time::Duration;
use txhunt_exec::stress::Interval;
use txhunt_model::{History, TestCase};

/// The stale reads of `history`, a stress run of `case` whose steps ran at `intervals`.
pub fn stale_reads(case: &TestCase, history: &History, intervals: &[Interval]) -> Vec<Violation> {
    let txns = Transactions::of(case, history);
    let n = txns.labels.len();
    // Per transaction: when its first statement was sent, when its last one was answered.
    let mut began = vec![Duration::MAX; n];
    let mut ended = vec![Duration::ZERO; n];
    for (s, interval) in intervals.iter().enumerate() {
        for t in [txns.of_step[s], txns.writer_of[s]] {
            began[t] = began[t].min(interval.invoked);
            ended[t] = ended[t].max(interval.completed);
        }
    }
    let dsg = Dsg::build(history, &txns, &|t| txns.committed[t]);
    let untracked = untracked_tables(case, history);
    let mut found = Vec::new();
    for edge in dsg.edges.iter().filter(|e| e.kind == Kind::Rw) {
        let (reader, overwriter) = (edge.from, edge.to);
        // Writes a savepoint rollback undid overwrote nothing; rows of a table an untracked
        // statement changed have unknown versions.
        if ended[overwriter] >= began[reader]
            || !txns.committed[overwriter]
            || untracked.contains(&edge.row.table)
        {
            continue;
        }
        let gap = began[reader] - ended[overwriter];
        let version = edge
            .version
            .map_or("a version".into(), |v| format!("version {v}"));
        found.push(Violation {
            invariant: "stale-read",
            text: format!(
                "step {} ({}) read {version} of row {}, which {} had overwritten and committed {:.3} ms before {} began",
                edge.step + 1,
                txns.labels[reader],
                edge.row,
                txns.labels[overwriter],
                gap.as_secs_f64() * 1000.0,
                txns.labels[reader],
            ),
            steps: std::iter::once(edge.step)
                .chain((0..intervals.len()).filter(|&s| txns.writer_of[s] == overwriter))
                .collect(),
            phenomenon: None,
            one_statement: false,
            allowed: None,
        });
    }
    found
}
