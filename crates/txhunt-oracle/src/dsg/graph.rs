//! The direct serialization graph of a recorded read/write history (Adya's DSG, as paper 003
//! §5.4 restates it), over item dependencies: a transaction *write-depends* (ww) on the one
//! that installed the version it overwrote, *read-depends* (wr) on the one that installed a
//! version it read, and *anti-depends* (rw) from a reader of a version to the transaction
//! that installed the next one. A predicate's matched versions are item reads here (their
//! overwriters anti-depend as items do); a write that changed what a predicate matched adds a
//! predicate anti-dependency ([`super::predicate`]).

use std::collections::{HashMap, VecDeque};
use txhunt_model::access::{RowId, Version};
use txhunt_model::History;

/// The kind of a dependency.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// `to` installed the version after the one `from` installed.
    Ww,
    /// `to` read a version `from` installed.
    Wr,
    /// `from` read a version, `to` installed the next one.
    Rw,
}

impl Kind {
    /// The kind as Adya writes it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Ww => "ww",
            Kind::Wr => "wr",
            Kind::Rw => "rw",
        }
    }
}

/// One dependency between two transactions (indices into [`super::Transactions`]), with the
/// row and the versions that make it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Edge {
    /// The transaction depended on.
    pub from: usize,
    /// The dependent transaction.
    pub to: usize,
    /// Its kind.
    pub kind: Kind,
    /// The row.
    pub row: RowId,
    /// The version read or overwritten (`from`'s for ww/wr; the one read for rw).
    pub version: Option<Version>,
    /// The step of `to` (ww, wr) or `from` (rw) that reads or writes it.
    pub step: usize,
    /// For a predicate dependency: the predicate (`t0 WHERE v > 5`) whose matches the write
    /// changed; `None` for an item dependency.
    pub predicate: Option<String>,
}

impl Edge {
    /// Whether this is an anti-dependency on a predicate (it makes a cycle G2 but not G2-item).
    pub fn is_predicate_rw(&self) -> bool {
        self.kind == Kind::Rw && self.predicate.is_some()
    }
}

/// The graph over the committed transactions of one run.
#[derive(Debug, Clone, Default)]
pub struct Dsg {
    /// Every dependency, once per (from, to, kind, row).
    pub edges: Vec<Edge>,
}

impl Dsg {
    /// The graph of `history`, an instrumented run whose step `s` belongs to transaction
    /// `txn_of[s]`, over the transactions `keep` says are in it (committed ones, for Adya's
    /// phenomena).
    pub fn build(history: &History, txn_of: &[usize], keep: &dyn Fn(usize) -> bool) -> Dsg {
        let writer = |v: Option<Version>| match v {
            Some(Version::Step(s)) => Some(txn_of[s]),
            _ => None,
        };
        // Per (row, overwritten version): the transaction that installed the next version. A
        // statement that wrote a row twice (a multi-row upsert) overwrote its own version:
        // that is no next version.
        let mut next: HashMap<(RowId, Option<Version>), usize> = HashMap::new();
        for (s, record) in history.steps.iter().enumerate() {
            for w in record.accesses.iter().flat_map(|a| &a.writes) {
                if w.overwrote != Some(Version::Step(s)) {
                    next.insert((w.row.clone(), w.overwrote), txn_of[s]);
                }
            }
        }
        let mut edges = Vec::new();
        let mut add = |from: usize, to: usize, kind, row: &RowId, version, step| {
            if from != to && keep(from) && keep(to) {
                edges.push(Edge {
                    from,
                    to,
                    kind,
                    row: row.clone(),
                    version,
                    step,
                    predicate: None,
                });
            }
        };
        for (s, record) in history.steps.iter().enumerate() {
            let Some(accesses) = &record.accesses else {
                continue;
            };
            let me = txn_of[s];
            for w in &accesses.writes {
                if let Some(previous) = writer(w.overwrote) {
                    add(previous, me, Kind::Ww, &w.row, w.overwrote, s);
                }
            }
            for r in &accesses.reads {
                if let Some(installer) = writer(r.version) {
                    add(installer, me, Kind::Wr, &r.row, r.version, s);
                }
                if let Some(&overwriter) = next.get(&(r.row.clone(), r.version)) {
                    add(me, overwriter, Kind::Rw, &r.row, r.version, s);
                }
            }
        }
        edges.sort();
        edges.dedup_by(|a, b| (a.from, a.to, a.kind, &a.row) == (b.from, b.to, b.kind, &b.row));
        Dsg { edges }
    }

    /// The shortest path of edges `allowed` accepts from transaction `from` to transaction `to`
    /// (empty when `from == to`), if there is one.
    pub fn path(
        &self,
        from: usize,
        to: usize,
        allowed: &dyn Fn(&Edge) -> bool,
    ) -> Option<Vec<Edge>> {
        let mut came: HashMap<usize, &Edge> = HashMap::new();
        let mut queue = VecDeque::from([from]);
        while let Some(at) = queue.pop_front() {
            if at == to {
                let mut path = Vec::new();
                let mut node = to;
                while node != from {
                    let edge = came[&node];
                    path.push(edge.clone());
                    node = edge.from;
                }
                path.reverse();
                return Some(path);
            }
            for edge in self.edges.iter().filter(|e| e.from == at && allowed(e)) {
                if edge.to != from && !came.contains_key(&edge.to) {
                    came.insert(edge.to, edge);
                    queue.push_back(edge.to);
                }
            }
        }
        None
    }
}
