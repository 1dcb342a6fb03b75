//! The direct serialization graph of a recorded read/write history (Adya's DSG, as paper 003
//! §5.4 restates it), over item dependencies: a transaction *write-depends* (ww) on the one
//! that installed the version it overwrote, *read-depends* (wr) on the one that installed a
//! version it read, and *anti-depends* (rw) from a reader of a version to the transaction
//! that installed the next one. A predicate's matched versions are item reads here (their
//! overwriters anti-depend as items do); a write that changed what a predicate matched adds a
//! predicate anti-dependency (the `predicate` module).

use super::Transactions;
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
    /// The graph of `history`, an instrumented run whose transactions are `txns` (step `s`
    /// reads for `txns.of_step[s]` and writes for `txns.writer_of[s]`), over the transactions
    /// `keep` says are in it (committed ones, for Adya's phenomena).
    pub fn build(history: &History, txns: &Transactions, keep: &dyn Fn(usize) -> bool) -> Dsg {
        Dsg::over(history, txns, keep, &NextVersions::of(history, txns, keep))
    }

    /// [`Dsg::build`] with the version order already known (`versions`, built with the same
    /// `keep`).
    pub fn over(
        history: &History,
        txns: &Transactions,
        keep: &dyn Fn(usize) -> bool,
        versions: &NextVersions,
    ) -> Dsg {
        let (reader_of, writer_of) = (&txns.of_step, &txns.writer_of);
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
            for w in &accesses.writes {
                if let Some(previous) = versions.installer(w.overwrote) {
                    add(previous, writer_of[s], Kind::Ww, &w.row, w.overwrote, s);
                }
            }
            // A write a savepoint rollback undid installed nothing, but its statement did read
            // the version it overwrote: that read stays the transaction's.
            let undone = (accesses.writes.iter())
                .filter(|_| writer_of[s] != reader_of[s])
                .map(|w| (&w.row, w.overwrote));
            let reads = accesses.reads.iter().map(|r| (&r.row, r.version));
            for (row, version) in reads.chain(undone) {
                if let Some(installer) = versions.installer(version) {
                    add(installer, reader_of[s], Kind::Wr, row, version, s);
                }
                if let Some(overwriter) = versions.overwriter(row, version) {
                    add(reader_of[s], overwriter, Kind::Rw, row, version, s);
                }
            }
        }
        edges.sort();
        edges.dedup_by(|a, b| (a.from, a.to, a.kind, &a.row) == (b.from, b.to, b.kind, &b.row));
        Dsg { edges }
    }

    /// The number of transactions the edges can name: one more than the largest index.
    pub fn nodes(&self) -> usize {
        self.edges
            .iter()
            .map(|e| e.from.max(e.to) + 1)
            .max()
            .unwrap_or(0)
    }

    /// The edges leaving each transaction.
    pub fn adjacency(&self) -> Adjacency {
        Adjacency::of(self)
    }

    /// The shortest path of edges `allowed` accepts from transaction `from` to transaction `to`
    /// (empty when `from == to`), if there is one; of several, the one a breadth-first search
    /// taking each transaction's edges in their order in [`Dsg::edges`] finds first.
    pub fn path(
        &self,
        from: usize,
        to: usize,
        allowed: &dyn Fn(&Edge) -> bool,
    ) -> Option<Vec<Edge>> {
        if from == to {
            return Some(Vec::new());
        }
        let adjacency = self.adjacency();
        if from.max(to) >= adjacency.nodes() {
            return None;
        }
        let mut bfs = Bfs::new(adjacency.nodes());
        bfs.run(self, &adjacency, from, &[to], usize::MAX, allowed);
        bfs.path(self, to)
    }
}

/// Adya's version order of a run's rows: per version of a row, the transaction that installed
/// the next one, among the transactions a graph keeps.
#[derive(Debug, Clone)]
pub struct NextVersions<'a> {
    /// Per (row, overwritten version): the next version, installed by a transaction in the
    /// graph (an aborted write installed nothing). A statement that wrote a row twice (a
    /// multi-row upsert) overwrote its own version: that is no next version.
    next: HashMap<(RowId, Option<Version>), Version>,
    /// Per step, the transaction its writes belong to.
    writer_of: &'a [usize],
}

impl<'a> NextVersions<'a> {
    /// The version order of `history`'s rows over the transactions (of `txns`) `keep` accepts.
    pub fn of(
        history: &History,
        txns: &'a Transactions,
        keep: &dyn Fn(usize) -> bool,
    ) -> NextVersions<'a> {
        let writer_of = &txns.writer_of;
        let mut next = HashMap::new();
        for (s, record) in history.steps.iter().enumerate() {
            for w in record.accesses.iter().flat_map(|a| &a.writes) {
                if w.overwrote != Some(Version::Step(s)) && keep(writer_of[s]) {
                    next.insert((w.row.clone(), w.overwrote), Version::Step(s));
                }
            }
        }
        NextVersions { next, writer_of }
    }

    /// The transaction that installed `version`, if a statement of the run did.
    pub fn installer(&self, version: Option<Version>) -> Option<usize> {
        match version {
            Some(Version::Step(s)) => Some(self.writer_of[s]),
            _ => None,
        }
    }

    /// The transaction that overwrote `version` of `row`. In Adya's version order only a
    /// transaction's last version of a row exists: the overwriter of an intermediate version
    /// (one its own transaction overwrote again) is the overwriter of that last one.
    pub fn overwriter(&self, row: &RowId, version: Option<Version>) -> Option<usize> {
        let mut at = version;
        loop {
            let after = *self.next.get(&(row.clone(), at))?;
            match self.installer(Some(after)) {
                t if t.is_some() && t == self.installer(version) => at = Some(after),
                t => return t,
            }
        }
    }
}

/// The edges leaving each transaction of a [`Dsg`], as indices into [`Dsg::edges`] in their
/// order there (compressed rows, built in one pass).
#[derive(Debug, Clone, Default)]
pub struct Adjacency {
    /// Where each transaction's edges start in `out`, and one more entry: the end.
    starts: Vec<usize>,
    /// The edge indices, grouped by `from`.
    out: Vec<usize>,
}

impl Adjacency {
    /// The adjacency of `dsg`.
    fn of(dsg: &Dsg) -> Adjacency {
        let nodes = dsg.nodes();
        let mut starts = vec![0; nodes + 1];
        for e in &dsg.edges {
            starts[e.from + 1] += 1;
        }
        for n in 0..nodes {
            starts[n + 1] += starts[n];
        }
        let mut next = starts.clone();
        let mut out = vec![0; dsg.edges.len()];
        for (i, e) in dsg.edges.iter().enumerate() {
            out[next[e.from]] = i;
            next[e.from] += 1;
        }
        Adjacency { starts, out }
    }

    /// The number of transactions.
    pub fn nodes(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// The indices of the edges leaving `node`, in their order in [`Dsg::edges`].
    pub fn out(&self, node: usize) -> &[usize] {
        &self.out[self.starts[node]..self.starts[node + 1]]
    }
}

/// A breadth-first search over a [`Dsg`]'s edges whose buffers serve many searches: each
/// search tells its marks from the last one's by a round number instead of clearing them.
#[derive(Debug, Clone)]
pub struct Bfs {
    /// The current search's number.
    round: u32,
    /// Per transaction, the last round that reached it.
    reached: Vec<u32>,
    /// Per transaction, the last round that looked for it.
    wanted: Vec<u32>,
    /// Per transaction reached, its distance from the source.
    dist: Vec<usize>,
    /// Per transaction reached, the edge it was reached by.
    via: Vec<usize>,
    /// The transactions reached and not yet expanded.
    queue: VecDeque<usize>,
    /// The current search's source.
    source: usize,
}

impl Bfs {
    /// Buffers for searches over `nodes` transactions.
    pub fn new(nodes: usize) -> Bfs {
        Bfs {
            round: 0,
            reached: vec![0; nodes],
            wanted: vec![0; nodes],
            dist: vec![0; nodes],
            via: vec![0; nodes],
            queue: VecDeque::new(),
            source: 0,
        }
    }

    /// Searches from `source` over the edges `allowed` accepts, at most `max_depth` edges deep,
    /// until all of `targets` are reached. Each transaction is reached by the first edge that
    /// reaches it, taking transactions in breadth-first order and each one's edges in their
    /// order in [`Dsg::edges`].
    pub fn run(
        &mut self,
        dsg: &Dsg,
        adjacency: &Adjacency,
        source: usize,
        targets: &[usize],
        max_depth: usize,
        allowed: &dyn Fn(&Edge) -> bool,
    ) {
        self.start(source);
        let mut left = 0;
        for &t in targets {
            if self.wanted[t] != self.round {
                self.wanted[t] = self.round;
                left += 1;
            }
        }
        if self.reach(source, 0, usize::MAX) {
            left -= 1;
        }
        while left > 0 {
            let Some(at) = self.queue.pop_front() else {
                return;
            };
            let depth = self.dist[at];
            if depth >= max_depth {
                return;
            }
            for &i in adjacency.out(at) {
                let edge = &dsg.edges[i];
                if self.reached[edge.to] == self.round || !allowed(edge) {
                    continue;
                }
                if self.reach(edge.to, depth + 1, i) {
                    left -= 1;
                    if left == 0 {
                        return;
                    }
                }
            }
        }
    }

    /// Begins a search from `source`.
    fn start(&mut self, source: usize) {
        if self.round == u32::MAX {
            self.reached.fill(0);
            self.wanted.fill(0);
            self.round = 0;
        }
        self.round += 1;
        self.source = source;
        self.queue.clear();
    }

    /// Marks `node` reached at `dist` by edge `via` and queues it; whether it was looked for.
    fn reach(&mut self, node: usize, dist: usize, via: usize) -> bool {
        self.reached[node] = self.round;
        self.dist[node] = dist;
        self.via[node] = via;
        self.queue.push_back(node);
        self.wanted[node] == self.round
    }

    /// How many edges the last search took to reach `node`, if it did.
    pub fn dist(&self, node: usize) -> Option<usize> {
        (self.reached[node] == self.round).then(|| self.dist[node])
    }

    /// The edges by which the last search reached `node` from its source, if it did.
    pub fn path(&self, dsg: &Dsg, node: usize) -> Option<Vec<Edge>> {
        self.dist(node)?;
        let mut path = Vec::new();
        let mut at = node;
        while at != self.source {
            let edge = &dsg.edges[self.via[at]];
            path.push(edge.clone());
            at = edge.from;
        }
        path.reverse();
        Some(path)
    }
}

/// The strongly connected components of the graph of some of a [`Dsg`]'s edges.
#[derive(Debug, Clone, Default)]
pub struct Components {
    /// Per transaction, its component's number in the order they were completed, which is
    /// reverse topological: an edge between two components goes from a higher number to a
    /// lower one.
    pub rank: Vec<usize>,
    /// Per transaction, the index in `cyclic` of its component, if that holds a cycle.
    pub cyclic_of: Vec<Option<usize>>,
    /// The components that hold a cycle (two transactions or more, or an edge to itself), each
    /// one's transactions in order.
    pub cyclic: Vec<Vec<usize>>,
}

impl Components {
    /// The components of the graph of the edges of `dsg` (by transaction in `adjacency`) that
    /// `keep` accepts: Tarjan's algorithm, with a stack of its own instead of recursion, which
    /// would go as deep as the longest path (a whole history's).
    pub fn of(dsg: &Dsg, adjacency: &Adjacency, keep: &dyn Fn(&Edge) -> bool) -> Components {
        let mut tarjan = Tarjan::new(dsg, adjacency, keep);
        for root in 0..adjacency.nodes() {
            if tarjan.index[root] == usize::MAX {
                tarjan.run(root);
            }
        }
        tarjan.found
    }
}

/// The state of Tarjan's algorithm.
struct Tarjan<'a> {
    /// The graph.
    dsg: &'a Dsg,
    /// Its edges by transaction.
    adjacency: &'a Adjacency,
    /// Which edges count.
    keep: &'a dyn Fn(&Edge) -> bool,
    /// Per transaction, when it was reached (`usize::MAX`: not yet).
    index: Vec<usize>,
    /// Per transaction, the earliest transaction still on `stack` it reaches.
    low: Vec<usize>,
    /// Per transaction, whether it is on `stack`.
    on_stack: Vec<bool>,
    /// Per transaction, whether it has a kept edge to itself.
    looped: Vec<bool>,
    /// The transactions reached whose component is not complete yet.
    stack: Vec<usize>,
    /// The transactions being visited, each with the position of its next edge.
    calls: Vec<(usize, usize)>,
    /// How many transactions were reached.
    reached: usize,
    /// How many components were completed.
    completed: usize,
    /// The components so far.
    found: Components,
}

impl<'a> Tarjan<'a> {
    /// The algorithm's state before it starts.
    fn new(dsg: &'a Dsg, adjacency: &'a Adjacency, keep: &'a dyn Fn(&Edge) -> bool) -> Self {
        let nodes = adjacency.nodes();
        Tarjan {
            dsg,
            adjacency,
            keep,
            index: vec![usize::MAX; nodes],
            low: vec![0; nodes],
            on_stack: vec![false; nodes],
            looped: vec![false; nodes],
            stack: Vec::new(),
            calls: Vec::new(),
            reached: 0,
            completed: 0,
            found: Components {
                rank: vec![0; nodes],
                cyclic_of: vec![None; nodes],
                cyclic: Vec::new(),
            },
        }
    }

    /// Completes the components of everything `root` reaches.
    fn run(&mut self, root: usize) {
        self.reach(root);
        while let Some(&(node, next)) = self.calls.last() {
            match self.adjacency.out(node).get(next) {
                Some(&edge) => {
                    if let Some(call) = self.calls.last_mut() {
                        call.1 += 1;
                    }
                    self.follow(node, edge);
                }
                None => self.leave(node),
            }
        }
    }

    /// Reaches `node`: a call to visit it.
    fn reach(&mut self, node: usize) {
        self.index[node] = self.reached;
        self.low[node] = self.reached;
        self.reached += 1;
        self.stack.push(node);
        self.on_stack[node] = true;
        self.calls.push((node, 0));
    }

    /// Follows edge `edge` out of `node`, if kept.
    fn follow(&mut self, node: usize, edge: usize) {
        let edge = &self.dsg.edges[edge];
        if !(self.keep)(edge) {
            return;
        }
        let to = edge.to;
        if to == node {
            self.looped[node] = true;
        }
        if self.index[to] == usize::MAX {
            self.reach(to);
        } else if self.on_stack[to] {
            self.low[node] = self.low[node].min(self.index[to]);
        }
    }

    /// Ends the visit of `node`, completing its component if it is the component's first.
    fn leave(&mut self, node: usize) {
        self.calls.pop();
        if let Some(&(caller, _)) = self.calls.last() {
            self.low[caller] = self.low[caller].min(self.low[node]);
        }
        if self.low[node] == self.index[node] {
            self.complete(node);
        }
    }

    /// Completes the component `first` was reached first of: it and what is above it on
    /// the stack.
    fn complete(&mut self, first: usize) {
        let start = self.stack.iter().rposition(|&n| n == first).unwrap_or(0);
        let cyclic = self.stack.len() - start > 1 || self.looped[first];
        let slot = cyclic.then_some(self.found.cyclic.len());
        for &n in &self.stack[start..] {
            self.found.rank[n] = self.completed;
            self.found.cyclic_of[n] = slot;
            self.on_stack[n] = false;
        }
        if cyclic {
            let mut members = self.stack[start..].to_vec();
            members.sort_unstable();
            self.found.cyclic.push(members);
        }
        self.stack.truncate(start);
        self.completed += 1;
    }
}
