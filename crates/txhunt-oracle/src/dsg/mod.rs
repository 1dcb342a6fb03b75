//! Adya's isolation phenomena found in a recorded read/write history
//! ([`txhunt_model::access`]): which guarantee a run broke, and the cycle of dependencies that
//! shows it, edge by edge. No re-execution: the history alone decides.
//!
//! Over the committed transactions' [`Dsg`] (item dependencies), per Adya as paper 003
//! restates him:
//! * **G0** (write cycle): a cycle of ww edges;
//! * **G1c** (circular information flow): a cycle of ww and wr edges, not G0;
//! * **G-single** (single anti-dependency cycle, e.g. a lost update or read skew): a cycle with
//!   exactly one rw edge;
//! * **G2-item** (item anti-dependency cycle, e.g. write skew): a cycle with rw edges, not
//!   G-single;
//!
//! and, from the reads alone:
//! * **G1a** (aborted read): a committed transaction read a version an aborted one installed;
//! * **G1b** (intermediate read): a committed transaction read a version its installer later
//!   overwrote itself.
//!
//! Each phenomenon is reported once, by its shortest cycle. Predicate dependencies (G2 beyond
//! G2-item) are not drawn yet ([`graph`]).

pub mod graph;
mod transactions;

pub use graph::{Dsg, Edge, Kind};
pub use transactions::Transactions;
use txhunt_model::access::Version;
use txhunt_model::{History, TestCase};

/// An Adya phenomenon.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// A cycle of write dependencies.
    G0,
    /// A read of an aborted transaction's version.
    G1a,
    /// A read of an intermediate version.
    G1b,
    /// A cycle of write and read dependencies.
    G1c,
    /// A cycle with exactly one anti-dependency.
    GSingle,
    /// A cycle with anti-dependencies (item dependencies only).
    G2Item,
}

impl Class {
    /// The phenomenon's name as Adya writes it (`G0`, `G1a`, …, `G-single`, `G2-item`).
    pub fn name(self) -> &'static str {
        match self {
            Class::G0 => "G0",
            Class::G1a => "G1a",
            Class::G1b => "G1b",
            Class::G1c => "G1c",
            Class::GSingle => "G-single",
            Class::G2Item => "G2-item",
        }
    }
}

/// One phenomenon of a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Anomaly {
    /// Which.
    pub class: Class,
    /// The dependencies that show it: the cycle, in order, or (G1a, G1b) the one read.
    pub edges: Vec<Edge>,
}

impl Anomaly {
    /// The anomaly edge by edge, e.g. `t1 -ww-> t2 on t:3 (version #2, step 5)`, with the
    /// run's transaction labels (`t2+` for a statement that ran on its own after `t2` aborted).
    pub fn explain(&self, txns: &Transactions) -> Vec<String> {
        self.edges
            .iter()
            .map(|e| {
                let version = e.version.map_or("none".to_string(), |v| v.to_string());
                format!(
                    "{} -{}-> {} on {} (version {version}, step {})",
                    txns.labels[e.from],
                    e.kind.name(),
                    txns.labels[e.to],
                    e.row,
                    e.step + 1
                )
            })
            .collect()
    }
}

/// The phenomena of `history`, an instrumented run of `case`, most severe first, and the
/// run's transactions they name.
pub fn anomalies(case: &TestCase, history: &History) -> (Vec<Anomaly>, Transactions) {
    let txns = Transactions::of(case, history);
    let committed = |t: usize| txns.committed[t];
    let mut found = reads_of_uncommitted(history, &txns);
    let dsg = Dsg::build(history, &txns.of_step, &committed);
    let cycle = |allowed: &dyn Fn(Kind) -> bool, first: &dyn Fn(Kind) -> bool| {
        dsg.edges
            .iter()
            .filter(|e| first(e.kind))
            .filter_map(|e| {
                let back = dsg.path(e.to, e.from, allowed)?;
                Some(std::iter::once(e.clone()).chain(back).collect::<Vec<_>>())
            })
            .min_by_key(Vec::len)
    };
    let not_rw = |k: Kind| k != Kind::Rw;
    if let Some(edges) = cycle(&|k| k == Kind::Ww, &|k| k == Kind::Ww) {
        found.push(Anomaly {
            class: Class::G0,
            edges,
        });
    } else if let Some(edges) = cycle(&not_rw, &not_rw) {
        found.push(Anomaly {
            class: Class::G1c,
            edges,
        });
    }
    if let Some(edges) = cycle(&not_rw, &|k| k == Kind::Rw) {
        found.push(Anomaly {
            class: Class::GSingle,
            edges,
        });
    } else if let Some(edges) = cycle(&|_| true, &|k| k == Kind::Rw) {
        found.push(Anomaly {
            class: Class::G2Item,
            edges,
        });
    }
    found.sort_by_key(|a| a.class);
    (found, txns)
}

/// G1a and G1b: reads by committed transactions of versions no committed state holds.
fn reads_of_uncommitted(history: &History, txns: &Transactions) -> Vec<Anomaly> {
    let txn_of = &txns.of_step;
    let committed = |t: usize| txns.committed[t];
    let aborted = |t: usize| txns.aborted[t];
    // Versions their own transaction overwrote later: (row, version).
    let overwritten_by_installer: Vec<_> = (history.steps.iter().enumerate())
        .flat_map(|(s, r)| {
            r.accesses
                .iter()
                .flat_map(|a| &a.writes)
                .map(move |w| (s, w))
        })
        .filter_map(|(s, w)| match w.overwrote {
            // A later statement of the same transaction (a statement that writes a row twice,
            // as a multi-row upsert can, leaves its own version: not an intermediate one).
            Some(Version::Step(p)) if p != s && txn_of[p] == txn_of[s] => {
                Some((w.row.clone(), Version::Step(p)))
            }
            _ => None,
        })
        .collect();
    let mut found: Vec<Anomaly> = Vec::new();
    for (s, record) in history.steps.iter().enumerate() {
        let reader = txn_of[s];
        if !committed(reader) {
            continue;
        }
        for r in record.accesses.iter().flat_map(|a| &a.reads) {
            let Some(Version::Step(w)) = r.version else {
                continue;
            };
            let installer = txn_of[w];
            if installer == reader {
                continue;
            }
            let class = if aborted(installer) {
                Class::G1a
            } else if overwritten_by_installer.contains(&(r.row.clone(), Version::Step(w))) {
                Class::G1b
            } else {
                continue;
            };
            if found.iter().any(|a| a.class == class) {
                continue;
            }
            found.push(Anomaly {
                class,
                edges: vec![Edge {
                    from: installer,
                    to: reader,
                    kind: Kind::Wr,
                    row: r.row.clone(),
                    version: r.version,
                    step: s,
                }],
            });
        }
    }
    found
}
