//! Read skew within one statement: a G-single cycle whose anti-dependency and whose closing
//! read-dependency are both reads of one plain read statement (a SELECT that locks nothing).
//! The statement read a version some transaction `o` overwrote, and a version installed by a
//! transaction `v` that `o` precedes by write- and read-dependencies alone (or that is `o`
//! itself): `reader -rw-> o -ww/wr->* v -wr-> reader`, every `-rw->`/`-wr->` at that one step.
//!
//! Many levels let G-single through *across* a transaction's statements (READ COMMITTED takes
//! a new snapshot per statement), but a level whose every plain read statement reads one
//! snapshot ([`Guarantee::statement_snapshot`]) forbids it *within* one: a snapshot that holds
//! `v` holds every transaction `v` depends on, `o` among them. The DSG oracle reports such a
//! cycle as the run's G-single witness, so that the level's judgement can tell the two apart.
//!
//! Only the rows the statement returned count: the rows it read but could not return (a
//! subquery's, an aggregate's) are read by version-set reads after it, which at READ
//! COMMITTED take a later snapshot ([`Accesses::version_set_reads`]).
//!
//! The search is targeted, not a general cycle search. From each overwriter `o` it follows
//! write- and read-dependencies (never through the reader's own transaction) only to
//! transactions whose last statement completed at most [`SLACK`] completions after the latest
//! commit among the statement's `v`s: along such a chain each transaction commits after the one
//! before it, so a chain that leaves that window is a reordering this check does not look
//! for. (The general search still reports any such cycle as G-single.)
//!
//! [`Guarantee::statement_snapshot`]: txhunt_db::profile::guarantee::Guarantee::statement_snapshot
//! [`Accesses::version_set_reads`]: txhunt_model::access::Accesses::version_set_reads

use super::graph::{Bfs, NextVersions};
use super::{Dsg, Edge, Kind, Transactions};
use std::collections::{BTreeSet, HashMap};
use txhunt_model::{History, SqlFamily, StmtKind, TestCase};
use txhunt_sql::analysis::locks_rows;

/// How many statement completions after the latest commit a statement read from a chain of
/// dependencies may reach: room for completions that reached txhunt's clients out of the
/// order the DBMS committed them in (a stress run's sessions record their own completions).
pub const SLACK: usize = 64;

/// The shortest cycle of read skew within one plain read statement of the run (the earliest
/// statement's, of equally short ones), in cycle order from its anti-dependency, and the
/// statement's step; `None` if no statement has one.
///
/// `dsg` is the run's graph (built over the committed transactions with `versions`), `untracked`
/// the tables left out of it and `family` the target's SQL family (which tells a locking read).
pub fn read_skew(
    (case, history, txns): (&TestCase, &History, &Transactions),
    dsg: &Dsg,
    versions: &NextVersions,
    untracked: &BTreeSet<String>,
    family: SqlFamily,
) -> Option<(Vec<Edge>, usize)> {
    let commit = commit_ranks(history, txns);
    let adjacency = dsg.adjacency();
    let nodes = adjacency.nodes();
    let mut bfs = Bfs::new(nodes);
    let mut best: Option<(Vec<Edge>, usize)> = None;
    // Whether each SELECT's text locks rows (a stress history repeats a few texts).
    let mut locking: HashMap<&str, bool> = HashMap::new();
    for (s, record) in history.steps.iter().enumerate() {
        let reader = txns.of_step[s];
        let Some(accesses) = &record.accesses else {
            continue;
        };
        if !txns.committed[reader] || !record.outcome.succeeded() {
            continue;
        }
        let stmt = &case.steps[s].stmt;
        if stmt.kind() != StmtKind::Select
            || *(locking.entry(&stmt.sql)).or_insert_with(|| locks_rows(&stmt.sql, family))
        {
            continue;
        }
        let other = |t: &usize| !txns.same(*t, reader) && txns.committed[*t] && *t < nodes;
        let (mut read_from, mut overwritten) = (Vec::new(), Vec::new());
        // The statement's own reads: its version-set reads may have taken a later snapshot.
        let own = accesses.reads.iter().skip(accesses.version_set_reads);
        for r in own.filter(|r| !untracked.contains(&r.row.table)) {
            let edge = |from, to, kind| Edge {
                from,
                to,
                kind,
                row: r.row.clone(),
                version: r.version,
                step: s,
                predicate: None,
            };
            if let Some(v) = versions.installer(r.version).filter(other) {
                read_from.push(edge(v, reader, Kind::Wr));
            }
            if let Some(o) = versions.overwriter(&r.row, r.version).filter(other) {
                overwritten.push(edge(reader, o, Kind::Rw));
            }
        }
        let Some(latest) = read_from.iter().map(|e| commit[e.from]).max() else {
            continue;
        };
        let limit = latest.saturating_add(SLACK);
        let targets: Vec<usize> = read_from.iter().map(|e| e.from).collect();
        let allowed =
            |e: &Edge| e.kind != Kind::Rw && !txns.same(e.to, reader) && commit[e.to] <= limit;
        for rw in overwritten.iter().filter(|e| commit[e.to] <= limit) {
            let longest = best.as_ref().map_or(usize::MAX, |(b, _)| b.len() - 2);
            bfs.run(dsg, &adjacency, rw.to, &targets, longest, &allowed);
            let Some(wr) = (read_from.iter())
                .filter(|e| bfs.dist(e.from).is_some_and(|d| d < longest))
                .min_by_key(|e| bfs.dist(e.from))
            else {
                continue;
            };
            let path = bfs.path(dsg, wr.from).unwrap_or_default();
            let cycle: Vec<Edge> = std::iter::once(rw.clone())
                .chain(path)
                .chain(std::iter::once(wr.clone()))
                .collect();
            if cycle.len() == 2 {
                return Some((cycle, s));
            }
            best = Some((cycle, s));
        }
    }
    best
}

/// Per transaction, the position among completed statements of its last statement to complete
/// (its commit, for a committed one); 0 for one that completed none.
fn commit_ranks(history: &History, txns: &Transactions) -> Vec<usize> {
    let mut ranks = vec![0; txns.labels.len()];
    for (s, record) in history.steps.iter().enumerate() {
        let Some(completed) = record.completed else {
            continue;
        };
        for t in [txns.of_step[s], txns.writer_of[s]] {
            ranks[t] = ranks[t].max(completed);
        }
    }
    ranks
}
