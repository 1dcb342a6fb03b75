//! The cycles of a [`Dsg`] that name Adya's phenomena, shortest first (paper 003 §5.4):
//! * **G0**: a cycle of ww edges;
//! * **G1c**: a cycle of ww and wr edges (reported when there is no G0 cycle);
//! * **G-single**: a cycle with exactly one rw edge; an item one is preferred to a predicate
//!   one, since only the item one is also G2-item;
//! * **G2-item**: a cycle whose rw edges are all item ones (reported when there is no item
//!   G-single cycle, which is one already);
//! * **G2**: a cycle with a predicate rw edge (reported when no G-single or G2-item cycle
//!   was).

use super::graph::{Dsg, Edge, Kind};
use std::time::Duration;
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
/// connected component for at most `budget`.
pub fn search(dsg: &Dsg, _budget: Duration) -> Search {
    let mut cycles = Vec::new();
    let mut push = |class, edges: Option<Vec<Edge>>| {
        if let Some(edges) = edges {
            cycles.push(Cycle { class, edges });
        }
    };
    let ww = |k: Kind| k == Kind::Ww;
    let not_rw = |k: Kind| k != Kind::Rw;
    let g0 = shortest(dsg, &ww, &ww);
    let g0_found = g0.is_some();
    push(Phenomenon::G0, g0);
    if !g0_found {
        push(Phenomenon::G1c, shortest(dsg, &not_rw, &not_rw));
    }
    let single = shortest_from(dsg, &not_rw, &|e: &Edge| {
        e.kind == Kind::Rw && !e.is_predicate_rw()
    });
    let item_single = single.is_some();
    let single = single.or_else(|| shortest_from(dsg, &not_rw, &Edge::is_predicate_rw));
    let any_single = single.is_some();
    push(Phenomenon::GSingle, single);
    let mut item = false;
    if !item_single {
        let g2_item = shortest_over(dsg, &|e: &Edge| !e.is_predicate_rw(), &|e: &Edge| {
            e.kind == Kind::Rw && !e.is_predicate_rw()
        });
        item = g2_item.is_some();
        push(Phenomenon::G2Item, g2_item);
    }
    if !any_single && !item {
        push(
            Phenomenon::G2,
            shortest_over(dsg, &|_| true, &Edge::is_predicate_rw),
        );
    }
    Search {
        cycles,
        unknown: Vec::new(),
    }
}

/// The shortest cycle that starts with an edge whose kind `first` accepts and goes on over
/// edges whose kind `rest` accepts.
fn shortest(
    dsg: &Dsg,
    first: &dyn Fn(Kind) -> bool,
    rest: &dyn Fn(Kind) -> bool,
) -> Option<Vec<Edge>> {
    shortest_over(dsg, &|e: &Edge| rest(e.kind), &|e: &Edge| first(e.kind))
}

/// The shortest cycle that starts with an edge `first` accepts and goes back over edges whose
/// kind `rest` accepts.
fn shortest_from(
    dsg: &Dsg,
    rest: &dyn Fn(Kind) -> bool,
    first: &dyn Fn(&Edge) -> bool,
) -> Option<Vec<Edge>> {
    shortest_over(dsg, &|e: &Edge| rest(e.kind), first)
}

/// The shortest cycle that starts with an edge `first` accepts and goes back over edges `rest`
/// accepts.
fn shortest_over(
    dsg: &Dsg,
    rest: &dyn Fn(&Edge) -> bool,
    first: &dyn Fn(&Edge) -> bool,
) -> Option<Vec<Edge>> {
    dsg.edges
        .iter()
        .filter(|e| first(e))
        .filter_map(|e| {
            let back = dsg.path(e.to, e.from, rest)?;
            Some(std::iter::once(e.clone()).chain(back).collect::<Vec<_>>())
        })
        .min_by_key(Vec::len)
}
