//! Adya's isolation phenomena found in a recorded read/write history
//! ([`txhunt_model::access`]): which guarantee a run broke, and the cycle of dependencies that
//! shows it, edge by edge. No re-execution: the history alone decides, except that whether a
//! write's new row matches another transaction's predicate is asked of the target when such a
//! predicate dependency would close a cycle (the `predicate` module).
//!
//! Over the committed transactions' [`Dsg`] (item and predicate dependencies), per Adya as
//! paper 003 restates him, the cycles of [`cycles`] (G0, G1c, G-single, G2-item, G2) and, from
//! the reads alone:
//! * **G1a** (aborted read): a committed transaction read a version an aborted one installed;
//! * **G1b** (intermediate read): a committed transaction read a version its installer later
//!   overwrote itself.
//!
//! Each phenomenon is reported once, by its shortest witness, named by its common refinement
//! where one applies ([`Refinement`]); except that a G-single within one plain read statement
//! ([`statement`]), where the run has one, is its witness even if longer: a level that lets
//! G-single through may still forbid that one.

pub mod cycles;
pub mod graph;
pub(crate) mod oracle;
mod predicate;
pub(crate) mod rows;
pub mod statement;
mod transactions;

pub use graph::{Dsg, Edge, Kind, NextVersions};
pub use oracle::Adya;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::time::Duration;
pub use transactions::Transactions;
use txhunt_exec::Runner;
use txhunt_model::access::{RowId, Version};
use txhunt_model::adya::Phenomenon;
use txhunt_model::{History, StmtKind, TestCase};

/// How long the cycle search may take per strongly connected component before what the
/// component holds is reported as unknown.
pub const COMPONENT_BUDGET: Duration = Duration::from_secs(5);

/// The common name of an anomaly's shape, where one applies (two transactions).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Refinement {
    /// G-single: `a` read a row, `b` overwrote it, `a` overwrote `b`'s version.
    LostUpdate,
    /// G-single: `a` read one row before `b` wrote it and another row `b` wrote (a fractured
    /// read of `b`'s writes).
    ReadSkew,
    /// G2-item or G2: each of two transactions read what the other then overwrote.
    WriteSkew,
}

impl Refinement {
    /// `lost-update`, `read-skew` or `write-skew`.
    pub fn name(self) -> &'static str {
        match self {
            Refinement::LostUpdate => "lost-update",
            Refinement::ReadSkew => "read-skew",
            Refinement::WriteSkew => "write-skew",
        }
    }

    /// The refinement of a cycle of `class` over `edges`, if its shape is a named one.
    fn of(class: Phenomenon, edges: &[Edge]) -> Option<Refinement> {
        let [a, b] = edges else {
            return None;
        };
        let (rw, other) = match (a.kind, b.kind) {
            (Kind::Rw, _) => (a, b),
            (_, Kind::Rw) => (b, a),
            _ => return None,
        };
        match (class, other.kind) {
            (Phenomenon::GSingle, Kind::Ww) if other.row == rw.row => Some(Refinement::LostUpdate),
            (Phenomenon::GSingle, Kind::Wr) if other.row != rw.row => Some(Refinement::ReadSkew),
            (Phenomenon::G2Item | Phenomenon::G2, Kind::Rw) => Some(Refinement::WriteSkew),
            _ => None,
        }
    }
}

/// One phenomenon of a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Anomaly {
    /// Which.
    pub class: Phenomenon,
    /// Whether its cycle has a predicate anti-dependency (a G-single one is then not G2-item).
    pub predicate: bool,
    /// Its common name, where one applies.
    pub refinement: Option<Refinement>,
    /// The dependencies that show it: the cycle, in order, or (G1a, G1b) the one read.
    pub edges: Vec<Edge>,
    /// Readable names of the rows its edges are on (`t(k=3)`), where the row has a key.
    pub rows: HashMap<RowId, String>,
    /// For a G-single whose anti-dependency and closing read-dependency are reads of one plain
    /// read statement ([`statement`]): that statement's step.
    pub within_statement: Option<usize>,
}

impl Anomaly {
    /// An anomaly of `class` shown by `edges`.
    fn new(class: Phenomenon, edges: Vec<Edge>) -> Anomaly {
        Anomaly {
            class,
            predicate: edges.iter().any(Edge::is_predicate_rw),
            refinement: Refinement::of(class, &edges),
            edges,
            rows: HashMap::new(),
            within_statement: None,
        }
    }

    /// The phenomena this anomaly is (its class and those Adya's definitions include it in).
    pub fn phenomena(&self) -> Vec<Phenomenon> {
        self.class.implied(self.predicate)
    }

    /// The anomaly edge by edge, e.g. `t1 -ww-> t2 on t:3 (version #2, step 5)`, with the
    /// run's transaction labels (`t2+` for a statement that ran on its own after `t2` aborted).
    pub fn explain(&self, txns: &Transactions) -> Vec<String> {
        self.edges
            .iter()
            .map(|e| {
                let version = e.version.map_or("none".to_string(), |v| v.to_string());
                let row = self.rows.get(&e.row).cloned();
                let row = row.unwrap_or_else(|| e.row.to_string());
                let on = match &e.predicate {
                    Some(p) => format!("predicate `{p}`, row {row}"),
                    None => row,
                };
                format!(
                    "{} -{}-> {} on {on} (version {version}, step {})",
                    txns.labels[e.from],
                    e.kind.name(),
                    txns.labels[e.to],
                    e.step + 1
                )
            })
            .collect()
    }
}

/// What the oracle saw in one run.
#[derive(Debug, Clone)]
pub struct Analysis {
    /// The phenomena, most severe first.
    pub anomalies: Vec<Anomaly>,
    /// The run's transactions the anomalies name.
    pub txns: Transactions,
    /// The groups of transactions whose cycles could not be searched in time: whatever
    /// phenomena they hold are unknown.
    pub unknown: Vec<Vec<usize>>,
    /// The tables left out of the graph: a statement changed them without instrumentation.
    pub untracked: BTreeSet<String>,
    /// Why predicate dependencies were left out of the graph, if they were.
    pub predicates_skipped: Option<String>,
}

/// The phenomena of `history`, an instrumented run of `case` on `runner`'s target (which
/// decides whether a write matched a predicate when a predicate dependency would close a
/// cycle), most severe first.
pub fn analyse(case: &TestCase, history: &History, runner: &dyn Runner) -> Analysis {
    let txns = Transactions::of(case, history);
    let committed = |t: usize| txns.committed[t];
    let untracked = untracked_tables(case, history);
    let mut anomalies = reads_of_uncommitted(history, &txns);
    anomalies.retain(|a| !untracked.contains(&a.edges[0].row.table));
    let versions = NextVersions::of(history, &txns, &committed);
    let mut dsg = Dsg::over(history, &txns, &committed, &versions);
    dsg.edges.retain(|e| !untracked.contains(&e.row.table));
    let predicate::Predicates { search, skipped } = predicate::search(
        (case, history, &txns),
        &mut dsg,
        &untracked,
        runner,
        COMPONENT_BUDGET,
    );
    anomalies.extend(
        search
            .cycles
            .into_iter()
            .map(|c| Anomaly::new(c.class, c.edges)),
    );
    let family = runner.profile().family();
    let run = (case, history, &txns);
    if let Some((edges, step)) = statement::read_skew(run, &dsg, &versions, &untracked, family) {
        anomalies.retain(|a| a.class != Phenomenon::GSingle);
        anomalies.push(Anomaly {
            within_statement: Some(step),
            ..Anomaly::new(Phenomenon::GSingle, edges)
        });
    }
    anomalies.sort_by_key(|a| a.class);
    let names = rows::names(history);
    for anomaly in &mut anomalies {
        anomaly.rows = (anomaly.edges.iter())
            .filter_map(|e| Some((e.row.clone(), names.get(&e.row)?.clone())))
            .collect();
    }
    Analysis {
        anomalies,
        txns,
        unknown: search.unknown,
        untracked,
        predicates_skipped: skipped,
    }
}

/// The tables a statement of the run may have changed without instrumentation seeing it (a
/// replacing INSERT's deleted rows, a write instrumentation cannot rewrite, DDL): every table
/// such a statement names. Their rows' versions may be stale, so no dependency on them is
/// drawn.
pub fn untracked_tables(case: &TestCase, history: &History) -> BTreeSet<String> {
    let mut tables = BTreeSet::new();
    for (s, record) in history.steps.iter().enumerate() {
        let Some(accesses) = &record.accesses else {
            continue;
        };
        let stmt = &case.steps[s].stmt;
        let changed = accesses.writes.is_empty()
            && !accesses.untracked.is_empty()
            && record.outcome.succeeded()
            && !matches!(stmt.kind(), StmtKind::Select);
        if !changed {
            continue;
        }
        let words: BTreeSet<String> = stmt
            .sql
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map(str::to_ascii_lowercase)
            .collect();
        tables.extend(
            (history.tables.iter())
                .filter(|t| words.contains(&t.name))
                .map(|t| t.name.clone()),
        );
    }
    tables
}

/// G1a and G1b: reads by committed transactions of versions no committed state holds.
fn reads_of_uncommitted(history: &History, txns: &Transactions) -> Vec<Anomaly> {
    let (txn_of, writer_of) = (&txns.of_step, &txns.writer_of);
    let committed = |t: usize| txns.committed[t];
    let aborted = |t: usize| txns.aborted[t];
    // Versions their own transaction overwrote later: (row, version).
    let overwritten_by_installer: HashSet<_> = (history.steps.iter().enumerate())
        .flat_map(|(s, r)| {
            r.accesses
                .iter()
                .flat_map(|a| &a.writes)
                .map(move |w| (s, w))
        })
        .filter_map(|(s, w)| match w.overwrote {
            // A later statement of the same transaction (a statement that writes a row twice,
            // as a multi-row upsert can, leaves its own version: not an intermediate one).
            Some(Version::Step(p)) if p != s && writer_of[p] == writer_of[s] => {
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
            let installer = writer_of[w];
            if txns.same(installer, reader) {
                continue;
            }
            let class = if aborted(installer) {
                Phenomenon::G1a
            } else if overwritten_by_installer.contains(&(r.row.clone(), Version::Step(w))) {
                Phenomenon::G1b
            } else {
                continue;
            };
            if found.iter().any(|a| a.class == class) {
                continue;
            }
            found.push(Anomaly::new(
                class,
                vec![Edge {
                    from: installer,
                    to: reader,
                    kind: Kind::Wr,
                    row: r.row.clone(),
                    version: r.version,
                    step: s,
                    predicate: None,
                }],
            ));
        }
    }
    found
}
