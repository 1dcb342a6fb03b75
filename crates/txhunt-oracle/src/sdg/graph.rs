//! The statement dependency graph of an instrumented run (paper 002 §3.1, Definition 1): its
//! nodes are the data statements of committed transactions, its edges the statement
//! dependencies of Definitions 2–8, read from the recorded versions instead of inferred from
//! BWR/AWR/VSR reads (Lemmas 1–7): txhunt's history names, for every statement, the version of
//! each row it returned, matched, read through a subquery or overwrote.
//!
//! For a row version `v` a statement `s` observed, `v`'s installer precedes `s` (item and
//! predicate read, item and predicate write, value write: `wr`, `ww`) and `s` precedes the
//! installer of the version after `v` (item and predicate anti-dependency: `rw`). What a
//! predicate did *not* match leaves no record: such constraints are learnt from the sequential
//! run itself ([`Kind::Unseen`], see the `oracle` module).

use crate::dsg::Transactions;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};
use txhunt_model::access::{RowId, Version, WriteKind};
use txhunt_model::{History, StepRecord, StmtKind, TestCase};

/// The kind of a statement dependency.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// `to` overwrote the version `from` installed (stmt-item/predicate-write).
    Ww,
    /// `to` read or matched the version `from` installed (stmt-item/predicate-read,
    /// stmt-value-write).
    Wr,
    /// `from` read or matched a version, `to` installed the next one (stmt-item/predicate-anti).
    Rw,
    /// `from` must precede `to` so that `to` (or `from`) does not see a version its predicate
    /// would match but did not: learnt from a sequential run.
    Unseen,
}

impl Kind {
    /// `ww`, `wr`, `rw` or `unseen`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Ww => "ww",
            Kind::Wr => "wr",
            Kind::Rw => "rw",
            Kind::Unseen => "unseen",
        }
    }
}

/// One dependency between two statements (step indices).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Edge {
    /// The statement depended on.
    pub from: usize,
    /// The dependent statement.
    pub to: usize,
    /// Its kind.
    pub kind: Kind,
    /// The row.
    pub row: RowId,
    /// The version read, overwritten or not seen.
    pub version: Version,
}

/// The row versions a statement observed: those it returned, matched or read through a
/// subquery, and those it overwrote or deleted.
pub fn observed(record: &StepRecord) -> Vec<(RowId, Version)> {
    let Some(accesses) = &record.accesses else {
        return Vec::new();
    };
    let reads = (accesses.reads.iter()).filter_map(|r| Some((r.row.clone(), r.version?)));
    let overwritten = (accesses.writes.iter())
        .filter(|w| w.kind != WriteKind::Insert)
        .filter_map(|w| Some((w.row.clone(), w.overwrote?)));
    reads.chain(overwritten).collect()
}

/// The statement dependency graph of one run, with what the sequential order needs to know
/// of the run's schedule.
#[derive(Debug, Clone)]
pub struct Graph {
    /// The statements: steps of committed transactions that touch rows and succeeded, not
    /// undone by a savepoint rollback.
    pub nodes: Vec<usize>,
    /// Every dependency, once.
    pub edges: Vec<Edge>,
    /// Per (row, version): the statement that installed the next committed version.
    next: HashMap<(RowId, Version), usize>,
    /// Per step: its completion position in the run.
    completed: Vec<Option<usize>>,
    /// Per step: its transaction (an index into [`Transactions`]).
    txn_of: Vec<usize>,
    /// Per transaction: the completion position of its last statement (its COMMIT).
    ended_at: Vec<Option<usize>>,
}

impl Graph {
    /// The graph of `history`, an instrumented run of `case`.
    pub fn build(case: &TestCase, history: &History) -> Graph {
        let txns = Transactions::of(case, history);
        let nodes: Vec<usize> = (0..case.steps.len())
            .filter(|&s| is_node(case, history, &txns, s))
            .collect();
        let is_node: HashSet<usize> = nodes.iter().copied().collect();
        let mut next = HashMap::new();
        for &s in &nodes {
            for w in history.steps[s].accesses.iter().flat_map(|a| &a.writes) {
                if let Some(v) = w.overwrote.filter(|v| *v != Version::Step(s)) {
                    next.insert((w.row.clone(), v), s);
                }
            }
        }
        let mut edges = HashSet::new();
        for &s in &nodes {
            let record = &history.steps[s];
            let written: HashSet<&RowId> = (record.accesses.iter())
                .flat_map(|a| &a.writes)
                .map(|w| &w.row)
                .collect();
            for (row, version) in observed(record) {
                if let Version::Step(i) = version {
                    if i != s && is_node.contains(&i) {
                        let kind = if written.contains(&row) {
                            Kind::Ww
                        } else {
                            Kind::Wr
                        };
                        edges.insert(edge(i, s, kind, &row, version));
                    }
                }
                if let Some(&j) = next.get(&(row.clone(), version)) {
                    if j != s {
                        edges.insert(edge(s, j, Kind::Rw, &row, version));
                    }
                }
            }
        }
        let mut edges: Vec<Edge> = edges.into_iter().collect();
        edges.sort();
        let completed: Vec<Option<usize>> = history.steps.iter().map(|r| r.completed).collect();
        let mut ended_at = vec![None; txns.labels.len()];
        for (s, &t) in txns.of_step.iter().enumerate() {
            ended_at[t] = ended_at[t].max(completed[s]);
        }
        Graph {
            nodes,
            edges,
            next,
            completed,
            txn_of: txns.of_step,
            ended_at,
        }
    }

    /// The statement that installed the committed version after `version` of `row`.
    pub fn next(&self, row: &RowId, version: Version) -> Option<usize> {
        self.next.get(&(row.clone(), version)).copied()
    }

    /// Whether step `writer`'s versions were visible to step `reader` when it completed in
    /// the run: `writer` is an earlier statement of its transaction, or its transaction had
    /// ended (committed) by then.
    pub fn visible_before(&self, writer: usize, reader: usize) -> bool {
        let (Some(w), Some(r)) = (self.completed[writer], self.completed[reader]) else {
            return false;
        };
        if self.txn_of[writer] == self.txn_of[reader] {
            return w < r;
        }
        self.ended_at[self.txn_of[writer]].is_some_and(|end| end < r)
    }

    /// A topological order of the nodes over the graph's edges and `extra` ones, `None` when
    /// they form a cycle. Among statements free to go next, the one that completed first in
    /// the run goes first (where the paper picks at random, a DBMS developer replaying the
    /// order gets the same one every time, and the closest to what the run did).
    pub fn order(&self, extra: &[Edge]) -> Option<Vec<usize>> {
        let mut indegree: HashMap<usize, usize> = self.nodes.iter().map(|&s| (s, 0)).collect();
        let mut after: HashMap<usize, Vec<usize>> = HashMap::new();
        for e in self.edges.iter().chain(extra) {
            *indegree.get_mut(&e.to)? += 1;
            after.entry(e.from).or_default().push(e.to);
        }
        let key = |s: usize| Reverse((self.completed[s], s));
        let mut ready: BinaryHeap<_> = (indegree.iter())
            .filter(|(_, &d)| d == 0)
            .map(|(&s, _)| key(s))
            .collect();
        let mut order = Vec::with_capacity(self.nodes.len());
        while let Some(Reverse((_, s))) = ready.pop() {
            order.push(s);
            for &t in after.get(&s).map_or(&[][..], Vec::as_slice) {
                let d = indegree.get_mut(&t).expect("an edge's ends are nodes");
                *d -= 1;
                if *d == 0 {
                    ready.push(key(t));
                }
            }
        }
        (order.len() == self.nodes.len()).then_some(order)
    }

    /// The statements of one cycle of the graph with `extra` edges (in cycle order), if it
    /// has one.
    pub fn cycle(&self, extra: &[Edge]) -> Option<Vec<usize>> {
        if self.order(extra).is_some() {
            return None;
        }
        let edges: Vec<&Edge> = self.edges.iter().chain(extra).collect();
        // Peel off every statement some order could place; what remains has an incoming edge
        // from the remainder each, so walking those edges backwards must come round.
        let mut remaining: HashSet<usize> = self.nodes.iter().copied().collect();
        loop {
            let free: Vec<usize> = (remaining.iter().copied())
                .filter(|&s| !(edges.iter()).any(|e| e.to == s && remaining.contains(&e.from)))
                .collect();
            if free.is_empty() {
                break;
            }
            for s in free {
                remaining.remove(&s);
            }
        }
        let start = *remaining.iter().min()?;
        let mut path = vec![start];
        loop {
            let at = *path.last().expect("the path starts with one statement");
            let before = (edges.iter())
                .filter(|e| e.to == at && remaining.contains(&e.from))
                .map(|e| e.from)
                .min()?;
            if let Some(i) = path.iter().position(|&s| s == before) {
                let mut cycle = path.split_off(i);
                cycle.reverse();
                return Some(cycle);
            }
            path.push(before);
        }
    }

    /// The edges that end or start at `step`: what fixes its place in any order.
    pub fn around(&self, step: usize) -> impl Iterator<Item = &Edge> {
        (self.edges.iter()).filter(move |e| e.to == step || e.from == step)
    }

    /// The step's completion position in the run.
    pub fn completed(&self, step: usize) -> Option<usize> {
        self.completed[step]
    }
}

/// An edge.
fn edge(from: usize, to: usize, kind: Kind, row: &RowId, version: Version) -> Edge {
    Edge {
        from,
        to,
        kind,
        row: row.clone(),
        version,
    }
}

/// Whether step `s` is a node: a statement that reads or writes rows, succeeded, and belongs
/// to a committed transaction whose writes it kept (a savepoint rollback did not undo it).
fn is_node(case: &TestCase, history: &History, txns: &Transactions, s: usize) -> bool {
    let kind = case.steps[s].stmt.kind();
    let data = matches!(
        kind,
        StmtKind::Select | StmtKind::Insert | StmtKind::Update | StmtKind::Delete
    );
    data && history.steps[s].outcome.succeeded()
        && txns.committed[txns.of_step[s]]
        && txns.writer_of[s] == txns.of_step[s]
}
