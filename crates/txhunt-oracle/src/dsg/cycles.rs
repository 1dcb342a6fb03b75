//! The cycles of a [`Dsg`] that name Adya's phenomena, shortest first (paper 003 §5.4):
//! * **G0**: a cycle of ww edges;
//! * **G1c**: a cycle of ww and wr edges (reported when there is no G0 cycle);
//! * **G-single**: a cycle with exactly one rw edge; an item one is preferred to a predicate
//!   one, since only the item one is also G2-item;
//! * **G2-item**: a cycle whose rw edges are all item ones (reported when there is no item
//!   G-single cycle, which is one already);
//! * **G2**: a cycle with a predicate rw edge (reported when no G-single or G2-item cycle
//!   was).
//!
//! Every cycle lies in one strongly connected component of the graph, so the search runs
//! component by component, each within a time budget. Within one, a phenomenon's shortest
//! cycle is, over every edge that may start it (its *first* edge), that edge and the shortest
//! path back over the edges that may follow it (the *rest*): one breadth-first search from
//! each transaction that such edges lead to serves all of them, cut at the depth that could
//! still beat the best cycle so far, and kept to the transactions that can still lead back
//! (those not below the targets in the order of the strongly connected components of the
//! rest's edges). Of equally short cycles, the one whose first edge comes first in
//! [`Dsg::edges`] wins, its path back being the one a breadth-first search taking edges in
//! that order finds: the result is what a search over every edge in order would give.

use super::graph::{Adjacency, Bfs, Components, Dsg, Edge, Kind};
use std::time::{Duration, Instant};
use txhunt_model::adya::Phenomenon;

/// A cycle and the phenomenon it shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cycle {
    /// The phenomenon.
    pub class: Phenomenon,
    /// The edges, in order: each one's `to` is the next one's `from`, the last one's `to` the
    /// first one's `from`.
    pub edges: Vec<Edge>,
}

/// What a search found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Search {
    /// The cycles, one per phenomenon found, most severe first.
    pub cycles: Vec<Cycle>,
    /// The strongly connected components (their transactions) whose search ran out of its time
    /// budget: what they hold is unknown.
    pub unknown: Vec<Vec<usize>>,
}

/// The phenomena of `dsg`'s cycles, each by its shortest cycle, searching each strongly
/// connected component for at most `budget` (checked before each breadth-first search, so a
/// zero budget searches nothing). A component out of time is reported unknown; the
/// phenomena whose search it had finished still count.
pub fn search(dsg: &Dsg, budget: Duration) -> Search {
    let adjacency = dsg.adjacency();
    let whole = Components::of(dsg, &adjacency, &|_| true);
    let mut searcher = Searcher::new(dsg, &adjacency, &whole.cyclic_of);
    let mut found = Found::default();
    let mut unknown = Vec::new();
    for (c, members) in whole.cyclic.iter().enumerate() {
        let deadline = Instant::now().checked_add(budget);
        if searcher
            .component(c, members, deadline, &mut found)
            .is_err()
        {
            unknown.push(members.clone());
        }
    }
    Search {
        cycles: found.cycles(),
        unknown,
    }
}

/// One of the searches that make up [`search`]: which edges may start a cycle and which may
/// follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Query {
    /// ww, then ww.
    G0,
    /// ww or wr, then ww or wr.
    G1c,
    /// An item rw, then ww or wr.
    ItemSingle,
    /// A predicate rw, then ww or wr.
    PredicateSingle,
    /// An item rw, then anything but a predicate rw.
    G2Item,
    /// A predicate rw, then anything.
    G2,
}

/// How many [`Query`]s there are.
const QUERIES: usize = 6;

impl Query {
    /// Whether `e` may start a cycle of this search.
    fn first(self, e: &Edge) -> bool {
        match self {
            Query::G0 => e.kind == Kind::Ww,
            Query::G1c => e.kind != Kind::Rw,
            Query::ItemSingle | Query::G2Item => e.kind == Kind::Rw && !e.is_predicate_rw(),
            Query::PredicateSingle | Query::G2 => e.is_predicate_rw(),
        }
    }

    /// Whether `e` may follow the first edge.
    fn rest(self, e: &Edge) -> bool {
        match self {
            Query::G0 => e.kind == Kind::Ww,
            Query::G1c | Query::ItemSingle | Query::PredicateSingle => e.kind != Kind::Rw,
            Query::G2Item => !e.is_predicate_rw(),
            Query::G2 => true,
        }
    }
}

/// A search ran out of its time budget.
#[derive(Debug)]
struct OutOfTime;

/// The shortest cycle one query found so far.
#[derive(Debug, Clone)]
struct Best {
    /// Its first edge's index in [`Dsg::edges`].
    first: usize,
    /// Its edges, from the first one.
    edges: Vec<Edge>,
}

impl Best {
    /// What makes a cycle better than another: fewer edges, then an earlier first edge.
    fn key(&self) -> (usize, usize) {
        (self.edges.len(), self.first)
    }
}

/// The best cycle per query, over the components searched so far.
#[derive(Debug, Default)]
struct Found([Option<Best>; QUERIES]);

impl Found {
    /// Keeps `best` for `query` if it beats the one kept.
    fn offer(&mut self, query: Query, best: Best) {
        let slot = &mut self.0[query as usize];
        if slot.as_ref().is_none_or(|b| best.key() < b.key()) {
            *slot = Some(best);
        }
    }

    /// The cycles to report, by the rules of the module doc.
    fn cycles(mut self) -> Vec<Cycle> {
        let mut take = |q: Query| self.0[q as usize].take();
        let g0 = take(Query::G0);
        let g1c = take(Query::G1c).filter(|_| g0.is_none());
        let item_single = take(Query::ItemSingle);
        let g2_item = take(Query::G2Item).filter(|_| item_single.is_none());
        let single = item_single.or_else(|| take(Query::PredicateSingle));
        let g2 = take(Query::G2).filter(|_| single.is_none() && g2_item.is_none());
        [
            (Phenomenon::G0, g0),
            (Phenomenon::G1c, g1c),
            (Phenomenon::GSingle, single),
            (Phenomenon::G2Item, g2_item),
            (Phenomenon::G2, g2),
        ]
        .into_iter()
        .filter_map(|(class, best)| {
            best.map(|b| Cycle {
                class,
                edges: b.edges,
            })
        })
        .collect()
    }
}

/// The state of one [`search`]: the graph's indexes and the buffers its searches share.
struct Searcher<'a> {
    /// The graph.
    dsg: &'a Dsg,
    /// Its edges by transaction.
    adjacency: &'a Adjacency,
    /// Per transaction, its component with a cycle, if any.
    cyclic_of: &'a [Option<usize>],
    /// Per query, once needed: the ranks of the components of its rest's edges (those inside
    /// a component with a cycle).
    ranks: [Option<Vec<usize>>; QUERIES],
    /// The breadth-first search.
    bfs: Bfs,
}

impl<'a> Searcher<'a> {
    /// A search of `dsg` (its edges by transaction: `adjacency`), whose transactions are in the
    /// components with a cycle `cyclic_of` says.
    fn new(dsg: &'a Dsg, adjacency: &'a Adjacency, cyclic_of: &'a [Option<usize>]) -> Searcher<'a> {
        Searcher {
            dsg,
            adjacency,
            cyclic_of,
            ranks: Default::default(),
            bfs: Bfs::new(adjacency.nodes()),
        }
    }

    /// Searches component `c` (its transactions `members`) until `deadline`, adding the
    /// cycles of each query it finishes to `found`; queries run in the order, and only when,
    /// the module doc's rules need them.
    fn component(
        &mut self,
        c: usize,
        members: &[usize],
        deadline: Option<Instant>,
        found: &mut Found,
    ) -> Result<(), OutOfTime> {
        let mut run = |query: Query| -> Result<bool, OutOfTime> {
            let best = self.shortest(query, c, members, deadline)?;
            let hit = best.is_some();
            if let Some(best) = best {
                found.offer(query, best);
            }
            Ok(hit)
        };
        if !run(Query::G0)? {
            run(Query::G1c)?;
        }
        if !run(Query::ItemSingle)? {
            let single = run(Query::PredicateSingle)?;
            let g2_item = run(Query::G2Item)?;
            if !single && !g2_item {
                run(Query::G2)?;
            }
        }
        Ok(())
    }

    /// The shortest cycle of `query` in component `c` (its transactions `members`).
    fn shortest(
        &mut self,
        query: Query,
        c: usize,
        members: &[usize],
        deadline: Option<Instant>,
    ) -> Result<Option<Best>, OutOfTime> {
        let (dsg, adjacency, cyclic_of) = (self.dsg, self.adjacency, self.cyclic_of);
        let rank: &[usize] = self.ranks[query as usize]
            .get_or_insert_with(|| rest_rank(dsg, adjacency, cyclic_of, query));
        let mut best: Option<Best> = None;
        for (source, firsts) in candidates(dsg, adjacency, cyclic_of, rank, query, c, members) {
            let Some(max_depth) = depth_limit(best.as_ref(), firsts[0]) else {
                continue;
            };
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return Err(OutOfTime);
            }
            let targets: Vec<usize> = firsts.iter().map(|&i| dsg.edges[i].from).collect();
            let floor = targets.iter().map(|&t| rank[t]).min().unwrap_or(0);
            let allowed =
                |e: &Edge| cyclic_of[e.to] == Some(c) && rank[e.to] >= floor && query.rest(e);
            (self.bfs).run(dsg, adjacency, source, &targets, max_depth, &allowed);
            close(dsg, &self.bfs, &firsts, &mut best);
        }
        Ok(best)
    }
}

/// Per transaction, the rank of its component in the graph of the edges that may follow the
/// first edge of `query` (those inside a component with a cycle: no other edge is on one).
fn rest_rank(
    dsg: &Dsg,
    adjacency: &Adjacency,
    cyclic_of: &[Option<usize>],
    query: Query,
) -> Vec<usize> {
    let inside = |e: &Edge| cyclic_of[e.from].is_some() && cyclic_of[e.from] == cyclic_of[e.to];
    Components::of(dsg, adjacency, &|e| inside(e) && query.rest(e)).rank
}

/// Keeps in `best` the best of the cycles that `bfs`, searching from the head of the edges
/// `firsts`, closed: each edge and the path back from its head to its tail.
fn close(dsg: &Dsg, bfs: &Bfs, firsts: &[usize], best: &mut Option<Best>) {
    for &first in firsts {
        let edge = &dsg.edges[first];
        let Some(back) = bfs.dist(edge.from) else {
            continue;
        };
        if best.as_ref().is_some_and(|b| b.key() <= (back + 1, first)) {
            continue;
        }
        let path = bfs.path(dsg, edge.from).unwrap_or_default();
        *best = Some(Best {
            first,
            edges: std::iter::once(edge.clone()).chain(path).collect(),
        });
    }
}

/// The edges of component `c` (its transactions `members`) that may start a cycle of `query`
/// and can be closed (their head not below their tail in `rank`), grouped by head, in order
/// of head; each group's edge indices in order.
fn candidates(
    dsg: &Dsg,
    adjacency: &Adjacency,
    cyclic_of: &[Option<usize>],
    rank: &[usize],
    query: Query,
    c: usize,
    members: &[usize],
) -> Vec<(usize, Vec<usize>)> {
    let mut firsts: Vec<(usize, usize)> = members
        .iter()
        .flat_map(|&n| adjacency.out(n))
        .map(|&i| (dsg.edges[i].to, i))
        .filter(|&(to, i)| {
            let e = &dsg.edges[i];
            cyclic_of[to] == Some(c) && rank[to] >= rank[e.from] && query.first(e)
        })
        .collect();
    firsts.sort_unstable();
    let mut groups: Vec<(usize, Vec<usize>)> = Vec::new();
    for (to, i) in firsts {
        match groups.last_mut() {
            Some((head, edges)) if *head == to => edges.push(i),
            _ => groups.push((to, vec![i])),
        }
    }
    groups
}

/// How deep a search for the cycles of first edges from index `first` on may go and still
/// beat `best`: a path of `best`'s length minus one ties it, and wins if `first` comes
/// earlier; `None` when nothing can beat it.
fn depth_limit(best: Option<&Best>, first: usize) -> Option<usize> {
    match best {
        None => Some(usize::MAX),
        Some(b) if first < b.first => b.edges.len().checked_sub(1),
        Some(b) => b.edges.len().checked_sub(2),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::VecDeque;
    use txhunt_model::access::RowId;

    /// An item dependency `from -kind-> to` on a row of its own.
    fn edge(from: usize, to: usize, kind: Kind) -> Edge {
        Edge {
            from,
            to,
            kind,
            row: RowId {
                table: "t".into(),
                rid: (from * 1000 + to) as i64,
            },
            version: None,
            step: 0,
            predicate: None,
        }
    }

    /// A predicate anti-dependency `from -rw-> to`.
    fn predicate(from: usize, to: usize) -> Edge {
        Edge {
            predicate: Some("t WHERE v > 5".into()),
            ..edge(from, to, Kind::Rw)
        }
    }

    /// The graph of `edges`, in the order [`Dsg::build`] leaves them.
    fn dsg(mut edges: Vec<Edge>) -> Dsg {
        edges.sort();
        Dsg { edges }
    }

    /// The search with all the time it needs.
    fn unbounded(dsg: &Dsg) -> Search {
        search(dsg, Duration::MAX)
    }

    fn classes(search: &Search) -> Vec<Phenomenon> {
        search.cycles.iter().map(|c| c.class).collect()
    }

    /// Each cycle as its transactions, from the first edge's `from`.
    fn shapes(search: &Search) -> Vec<Vec<usize>> {
        let shape = |c: &Cycle| c.edges.iter().map(|e| e.from).collect();
        search.cycles.iter().map(shape).collect()
    }

    use Kind::{Rw, Wr, Ww};

    #[test]
    fn a_ww_cycle_is_g0_and_hides_g1c() {
        let found = unbounded(&dsg(vec![
            edge(0, 1, Ww),
            edge(1, 0, Ww),
            edge(1, 2, Wr),
            edge(2, 1, Wr),
        ]));
        assert_eq!(classes(&found), [Phenomenon::G0]);
        assert_eq!(shapes(&found), [[0, 1]]);
    }

    #[test]
    fn a_ww_wr_cycle_is_g1c() {
        let found = unbounded(&dsg(vec![edge(0, 1, Ww), edge(1, 0, Wr)]));
        assert_eq!(classes(&found), [Phenomenon::G1c]);
    }

    #[test]
    fn one_item_rw_is_g_single_and_hides_g2_item() {
        let found = unbounded(&dsg(vec![
            edge(0, 1, Rw),
            edge(1, 0, Ww),
            edge(1, 2, Rw),
            edge(2, 1, Rw),
        ]));
        assert_eq!(classes(&found), [Phenomenon::GSingle]);
        assert!(!found.cycles[0].edges.iter().any(Edge::is_predicate_rw));
    }

    #[test]
    fn an_item_g_single_beats_a_shorter_predicate_one() {
        let found = unbounded(&dsg(vec![
            predicate(0, 1),
            edge(1, 0, Wr),
            edge(2, 3, Rw),
            edge(3, 4, Ww),
            edge(4, 2, Wr),
        ]));
        assert_eq!(classes(&found), [Phenomenon::GSingle]);
        assert_eq!(shapes(&found), [[2, 3, 4]]);
    }

    #[test]
    fn a_predicate_g_single_leaves_g2_item_to_be_reported() {
        let found = unbounded(&dsg(vec![
            predicate(0, 1),
            edge(1, 0, Wr),
            edge(2, 3, Rw),
            edge(3, 2, Rw),
        ]));
        assert_eq!(classes(&found), [Phenomenon::GSingle, Phenomenon::G2Item]);
        assert!(found.cycles[0].edges[0].is_predicate_rw());
    }

    #[test]
    fn two_item_rws_are_g2_item_and_a_predicate_one_g2() {
        let item = unbounded(&dsg(vec![edge(0, 1, Rw), edge(1, 0, Rw)]));
        assert_eq!(classes(&item), [Phenomenon::G2Item]);
        let with_predicate = unbounded(&dsg(vec![predicate(0, 1), edge(1, 0, Rw)]));
        assert_eq!(classes(&with_predicate), [Phenomenon::G2]);
        assert_eq!(shapes(&with_predicate), [[0, 1]]);
    }

    #[test]
    fn the_shortest_cycle_is_chosen() {
        // 0 -> 1 -> 2 -> 3 -> 0 and, sharing 1 and 2, 2 -> 1.
        let found = unbounded(&dsg(vec![
            edge(0, 1, Ww),
            edge(1, 2, Ww),
            edge(2, 3, Ww),
            edge(3, 0, Ww),
            edge(2, 1, Ww),
        ]));
        assert_eq!(shapes(&found), [[1, 2]]);
    }

    #[test]
    fn of_equally_short_cycles_the_one_with_the_earliest_first_edge_wins() {
        let found = unbounded(&dsg(vec![
            edge(5, 6, Ww),
            edge(6, 5, Ww),
            edge(2, 3, Ww),
            edge(3, 2, Ww),
        ]));
        assert_eq!(shapes(&found), [[2, 3]]);
    }

    #[test]
    fn disjoint_components_are_all_searched() {
        let found = unbounded(&dsg(vec![
            edge(0, 1, Ww),
            edge(1, 2, Ww),
            edge(2, 0, Ww),
            edge(3, 4, Rw),
            edge(4, 3, Wr),
            edge(5, 6, Ww),
            edge(6, 5, Ww),
            edge(2, 3, Ww),
        ]));
        assert_eq!(classes(&found), [Phenomenon::G0, Phenomenon::GSingle]);
        assert_eq!(shapes(&found), [vec![5, 6], vec![3, 4]]);
        assert!(found.unknown.is_empty());
    }

    #[test]
    fn a_component_out_of_time_is_unknown() {
        let found = search(&dsg(vec![edge(0, 1, Rw), edge(1, 0, Ww)]), Duration::ZERO);
        assert_eq!(found.cycles, []);
        assert_eq!(found.unknown, [[0, 1]]);
    }

    #[test]
    fn an_acyclic_graph_has_no_cycle_and_nothing_unknown() {
        let found = search(&dsg(vec![edge(0, 1, Rw), edge(1, 2, Ww)]), Duration::ZERO);
        assert_eq!(found, Search::default());
    }

    #[test]
    fn a_long_history_does_not_overflow_the_stack() {
        let n = 200_000;
        let mut edges: Vec<Edge> = (0..n).map(|t| edge(t, t + 1, Ww)).collect();
        edges.push(edge(n, 0, Rw));
        let found = unbounded(&dsg(edges));
        assert_eq!(classes(&found), [Phenomenon::GSingle]);
        assert_eq!(found.cycles[0].edges.len(), n + 1);
    }

    /// The search this module replaced, one breadth-first search over every edge per first
    /// edge: what [`search`] must find.
    fn reference(dsg: &Dsg) -> Vec<Cycle> {
        let shortest = |first: &dyn Fn(&Edge) -> bool, rest: &dyn Fn(&Edge) -> bool| {
            (dsg.edges.iter().filter(|e| first(e)))
                .filter_map(|e| {
                    let back = naive_path(dsg, e.to, e.from, rest)?;
                    Some(std::iter::once(e.clone()).chain(back).collect::<Vec<_>>())
                })
                .min_by_key(Vec::len)
        };
        let mut cycles = Vec::new();
        let mut push = |class, edges: &Option<Vec<Edge>>| {
            if let Some(edges) = edges {
                cycles.push(Cycle {
                    class,
                    edges: edges.clone(),
                });
            }
        };
        let ww = |e: &Edge| e.kind == Ww;
        let not_rw = |e: &Edge| e.kind != Rw;
        let item_rw = |e: &Edge| e.kind == Rw && !e.is_predicate_rw();
        let g0 = shortest(&ww, &ww);
        push(Phenomenon::G0, &g0);
        if g0.is_none() {
            push(Phenomenon::G1c, &shortest(&not_rw, &not_rw));
        }
        let item_single = shortest(&item_rw, &not_rw);
        let single = (item_single.clone()).or_else(|| shortest(&Edge::is_predicate_rw, &not_rw));
        push(Phenomenon::GSingle, &single);
        let mut g2_item = None;
        if item_single.is_none() {
            g2_item = shortest(&item_rw, &|e: &Edge| !e.is_predicate_rw());
            push(Phenomenon::G2Item, &g2_item);
        }
        if single.is_none() && g2_item.is_none() {
            push(Phenomenon::G2, &shortest(&Edge::is_predicate_rw, &|_| true));
        }
        cycles
    }

    /// The breadth-first path [`Dsg::path`] used to find, scanning every edge at every step.
    fn naive_path(
        dsg: &Dsg,
        from: usize,
        to: usize,
        allowed: &dyn Fn(&Edge) -> bool,
    ) -> Option<Vec<Edge>> {
        let mut came: std::collections::HashMap<usize, &Edge> = Default::default();
        let mut queue = VecDeque::from([from]);
        while let Some(at) = queue.pop_front() {
            if at == to {
                let mut path = Vec::new();
                let mut node = to;
                while node != from {
                    path.push(came[&node].clone());
                    node = came[&node].from;
                }
                path.reverse();
                return Some(path);
            }
            for e in dsg.edges.iter().filter(|e| e.from == at && allowed(e)) {
                if e.to != from && !came.contains_key(&e.to) {
                    came.insert(e.to, e);
                    queue.push_back(e.to);
                }
            }
        }
        None
    }

    /// Random graphs over a few transactions, every kind of edge, in any order (as
    /// predicate dependencies appended after the item ones leave them).
    fn graphs() -> impl Strategy<Value = Dsg> {
        let one = (0..7usize, 0..7usize, 0..4u8).prop_map(|(from, to, kind)| match kind {
            0 => edge(from, to, Ww),
            1 => edge(from, to, Wr),
            2 => edge(from, to, Rw),
            _ => predicate(from, to),
        });
        proptest::collection::vec(one, 0..24).prop_map(|edges| Dsg {
            edges: edges.into_iter().filter(|e| e.from != e.to).collect(),
        })
    }

    proptest! {
        #[test]
        fn finds_what_the_search_over_every_edge_finds(dsg in graphs()) {
            let found = unbounded(&dsg);
            prop_assert_eq!(found.cycles, reference(&dsg));
            prop_assert!(found.unknown.is_empty());
        }

        #[test]
        fn paths_are_the_shortest(dsg in graphs(), from in 0..7usize, to in 0..7usize) {
            let any = |_: &Edge| true;
            prop_assert_eq!(dsg.path(from, to, &any), naive_path(&dsg, from, to, &any));
        }
    }
}
