//! Predicate dependencies (Adya, as paper 003 restates him). A version *changes the matches* of
//! a predicate when it matches and the version before it did not, or the reverse (an insert
//! of a matching row, an update into or out of the predicate, a delete of a matching row). A
//! transaction whose predicate read saw version `h` of a row
//! * *anti-depends* (rw) on the installer of every later version that changes the matches;
//! * *read-depends* (wr) on the installer of every version up to `h` that changes them.
//!
//! A predicate's matched rows are recorded (they are item reads, [`super::graph`]), the rows
//! it did not match are not: for those the reader saw *some* state that does not match, and
//! an edge is drawn only if it holds whichever of the row's non-matching states that was:
//! * the predicate is the only one its statement evaluated (one table: no join, no
//!   subquery) and its condition has no subquery, so that a row's match depends on the row
//!   alone; the reader did not write the row itself;
//! * the row's states are its committed versions, after its setup version (whose columns the
//!   instrumented setup recorded) or before its insert (absent), a delete being a state that
//!   matches nothing;
//! * rw to the installer of a version after every non-matching state, wr from the installer
//!   of a version up to the first non-matching state; a first state whose match is unknown (a
//!   version instrumentation did not write) counts as possibly non-matching.
//!
//! Whether a version matches is asked of the target itself (its types, collations and
//! functions decide, not a re-implementation): the version's row alone in its table, then
//! `SELECT COUNT(*) … WHERE condition`, in a fresh database with the setup's schema (not its
//! rows), every question on one session ([`Runner::ask`]). That costs one extra database, so
//! it is done only when the possible predicate edges would show a phenomenon the item
//! dependencies do not; a version whose match cannot be decided (an error) makes its row draw
//! no edge.

use super::cycles::{self, Search};
use super::{Dsg, Edge, Kind, Transactions};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::time::Duration;
use txhunt_exec::Runner;
use txhunt_model::access::{Predicate, RowId, TableMeta, Version, WriteKind};
use txhunt_model::{History, Outcome, TestCase, Value};

/// The cycles of `dsg`, with the predicate dependencies that change its phenomena added to it
/// once the target confirmed them. Tables in `untracked` get none (their rows' states are not
/// known). Over [`MAX_POSSIBLE`] possible predicate dependencies, only the item dependencies
/// are searched, and the answer says so.
pub fn search(
    (case, history, txns): (&TestCase, &History, &Transactions),
    dsg: &mut Dsg,
    untracked: &BTreeSet<String>,
    runner: &dyn Runner,
    budget: Duration,
) -> Predicates {
    let items = cycles::search(dsg, budget);
    let chains = committed_chains(history, txns);
    let Ok(candidates) = candidates(history, txns, &chains, untracked) else {
        return Predicates {
            search: items,
            skipped: Some(format!(
                "predicate dependencies were not searched: the predicate reads and the rows they did not match have more than {MAX_POSSIBLE} possible dependencies (item dependencies were)"
            )),
        };
    };
    if candidates.is_empty() {
        return items.into();
    }
    let tentative = tentative(dsg, &candidates, txns.labels.len(), MAX_POSSIBLE);
    if phenomena(&cycles::search(&tentative, budget)) == phenomena(&items) {
        return items.into();
    }
    let verdicts = evaluate(case, history, runner, &candidates);
    for candidate in &candidates {
        let matches = |image: &[Value]| {
            let key = candidate.query(image).key(&history.tables);
            verdicts.get(&key).copied().flatten()
        };
        dsg.edges.extend(candidate.edges(&matches));
    }
    cycles::search(dsg, budget).into()
}

/// The most possible predicate dependencies (over every predicate read, the committed versions
/// of the rows it did not match) searched: past it the search would outgrow memory (a stress
/// history of random statements), and only item dependencies are searched.
pub const MAX_POSSIBLE: usize = 200_000;

/// The cycles found, and why predicate dependencies were not searched, if they were not.
pub struct Predicates {
    /// The cycles.
    pub search: Search,
    /// Why predicate dependencies were left out, if they were.
    pub skipped: Option<String>,
}

impl From<Search> for Predicates {
    fn from(search: Search) -> Self {
        Predicates {
            search,
            skipped: None,
        }
    }
}

/// `dsg` with every predicate dependency `candidates` might give once the target says which
/// versions match, for asking whether any could change the phenomena (over `transactions`
/// transactions). One candidate gives at most a wr edge from the installer of a version `a`
/// and an rw edge to the installer of a later version `b` (`a < b`: [`Candidate::edges`]), so
/// a cycle must not enter the reader by the candidate's wr from `a` and leave it by the
/// candidate's rw to a version up to `a` (with one version, the two edges to its installer
/// would make a 2-cycle no answer can give). Each such wr edge therefore leads to a copy of the
/// reader (a node of its own past the transactions) that leaves as the reader does, except by
/// those rw edges. The graph is only searched for its phenomena: what a cycle through a copy
/// shows, a cycle through the reader would. Past `most` copied edges, the wr edges lead to
/// the reader itself.
fn tentative(dsg: &Dsg, candidates: &[Candidate], transactions: usize, most: usize) -> Dsg {
    let mut graph = dsg.clone();
    let mut copies: Vec<(usize, &Candidate, usize)> = Vec::new();
    let first_copy = transactions.max(dsg.nodes());
    let mut next = first_copy;
    for candidate in candidates {
        for (version, edge) in candidate.possible() {
            if edge.kind == Kind::Rw {
                graph.edges.push(edge);
            } else {
                copies.push((next, candidate, version));
                graph.edges.push(Edge { to: next, ..edge });
                next += 1;
            }
        }
    }
    let adjacency = graph.adjacency();
    let copied: usize = (copies.iter())
        .map(|(_, candidate, _)| adjacency.out(candidate.reader).len())
        .sum();
    if copied > most {
        // Too many copies (a reader of many rows, each with many versions): the wr edges
        // reach the reader itself, which lets more cycles form, never fewer.
        for edge in &mut graph.edges {
            let copy = edge.to.checked_sub(first_copy);
            if let Some(&(_, candidate, _)) = copy.and_then(|i| copies.get(i)) {
                edge.to = candidate.reader;
            }
        }
        return graph;
    }
    let mut leaving = Vec::new();
    for &(copy, candidate, version) in &copies {
        let own_rw = |e: &Edge| {
            e.kind == Kind::Rw
                && e.step == candidate.step
                && &e.row == candidate.row
                && (candidate.chain.versions[..version].iter()).any(|v| Some(v.1) == e.version)
        };
        leaving.extend(
            (adjacency.out(candidate.reader).iter())
                .map(|&i| &graph.edges[i])
                .filter(|e| !own_rw(e))
                .map(|e| Edge {
                    from: copy,
                    ..e.clone()
                }),
        );
    }
    graph.edges.extend(leaving);
    graph
}

/// The phenomena a search found, with whether each cycle has a predicate anti-dependency.
fn phenomena(search: &Search) -> BTreeSet<(txhunt_model::adya::Phenomenon, bool)> {
    search
        .cycles
        .iter()
        .map(|c| (c.class, c.edges.iter().any(Edge::is_predicate_rw)))
        .collect()
}

/// A committed state of a row after its first one: the installing transaction, the version,
/// the row's columns (`None` for a delete).
type Installed<'a> = (usize, Version, Option<&'a [Value]>);

/// A row's states: how it began, then its committed versions in version order.
#[derive(Clone)]
struct Chain<'a> {
    /// Its first state.
    start: Start<'a>,
    /// The committed versions after it.
    versions: Vec<Installed<'a>>,
}

/// How a row began.
#[derive(Clone, Copy)]
enum Start<'a> {
    /// Absent: its first version is an insert.
    Absent,
    /// With a setup version whose columns were recorded.
    Setup(&'a [Value]),
    /// With a version whose columns are not known (one instrumentation did not write).
    Unknown,
}

impl<'a> Start<'a> {
    /// The columns of the first state, if it is a recorded version.
    fn image(self) -> Option<&'a [Value]> {
        match self {
            Start::Setup(image) => Some(image),
            _ => None,
        }
    }
}

/// A predicate that did not match a row, and the row's states.
struct Candidate<'a, 'c> {
    /// The reading transaction.
    reader: usize,
    /// Its step that evaluated the predicate.
    step: usize,
    /// The predicate.
    predicate: &'a Predicate,
    /// The row.
    row: &'a RowId,
    /// Its states.
    chain: &'c Chain<'a>,
}

/// What to ask the target: does this row (its columns) of this table match this condition?
struct Query<'a> {
    table: &'a str,
    condition: Option<&'a str>,
    image: &'a [Value],
}

impl Query<'_> {
    /// The question as a key (values are not hashable: floats). Only the values of the
    /// columns the condition names (of the table's `tables`) count: two rows that agree on
    /// them match alike (the condition has no subquery), so a hot row's many versions that
    /// differ in other columns are asked about once.
    fn key(&self, tables: &[TableMeta]) -> String {
        let named: Vec<String> = (self.condition.unwrap_or_default())
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map(str::to_ascii_lowercase)
            .collect();
        let columns = tables
            .iter()
            .find(|t| t.name == self.table)
            .map(|t| &t.columns);
        let values: Vec<&Value> = match columns {
            Some(columns) => (columns.iter().zip(self.image))
                .filter(|(c, _)| named.contains(&c.to_ascii_lowercase()))
                .map(|(_, v)| v)
                .collect(),
            None => self.image.iter().collect(),
        };
        format!("{}|{:?}|{:?}", self.table, self.condition, values)
    }
}

impl Candidate<'_, '_> {
    /// The question whether `image` matches the predicate.
    fn query<'b>(&'b self, image: &'b [Value]) -> Query<'b> {
        Query {
            table: &self.predicate.table,
            condition: self.predicate.condition.as_deref(),
            image,
        }
    }

    /// The dependencies on the row, given whether each version's columns match the predicate
    /// (`matches(image)`: `None` when the target could not say, and then none is drawn).
    fn edges(&self, matches: &dyn Fn(&[Value]) -> Option<bool>) -> Vec<Edge> {
        let versions = &self.chain.versions;
        let first = match self.chain.start {
            Start::Absent => Some(false),
            Start::Setup(image) => matches(image),
            Start::Unknown => None,
        };
        // A delete matches nothing.
        let mut known: Vec<Option<bool>> = std::iter::once(first)
            .chain(
                versions
                    .iter()
                    .map(|(_, _, image)| image.map_or(Some(false), matches)),
            )
            .collect();
        let mut dependencies: Vec<(usize, Kind)> = Vec::new();
        if !known[1..].contains(&None) {
            let unmatched: Vec<usize> = (0..known.len())
                .filter(|&i| known[i] != Some(true))
                .collect();
            if unmatched == [0] {
                // The reader saw a state that does not match: only the first one can be it.
                known[0] = Some(false);
            }
            if let (Some(&first), Some(&last)) = (unmatched.first(), unmatched.last()) {
                let changes =
                    |j: usize| matches!((known[j - 1], known[j]), (Some(a), Some(b)) if a != b);
                dependencies = (1..=versions.len())
                    .filter(|&j| changes(j) && (j > last || j <= first))
                    .map(|j| (j, if j > last { Kind::Rw } else { Kind::Wr }))
                    .collect();
            }
        }
        let drawn = self.draw(dependencies.into_iter());
        drawn.into_iter().map(|(_, edge)| edge).collect()
    }

    /// Every dependency that might hold before the target is asked, each with its version (1
    /// for the first after the row's first state).
    fn possible(&self) -> Vec<(usize, Edge)> {
        let versions = 1..=self.chain.versions.len();
        self.draw(versions.flat_map(|j| [(j, Kind::Rw), (j, Kind::Wr)]))
    }

    /// The edges of `dependencies`: per version (1 for the first after the row's first
    /// state), rw from the reader to its installer or wr from its installer to the reader, each
    /// with its version (the reader's own versions draw none).
    fn draw(&self, dependencies: impl Iterator<Item = (usize, Kind)>) -> Vec<(usize, Edge)> {
        let versions = &self.chain.versions;
        let text = match &self.predicate.condition {
            Some(c) => format!("{} WHERE {c}", self.predicate.table),
            None => self.predicate.table.clone(),
        };
        dependencies
            .filter(|&(j, _)| versions[j - 1].0 != self.reader)
            .map(|(j, kind)| {
                let (installer, version, _) = versions[j - 1];
                let (from, to) = match kind {
                    Kind::Rw => (self.reader, installer),
                    _ => (installer, self.reader),
                };
                let edge = Edge {
                    from,
                    to,
                    kind,
                    row: self.row.clone(),
                    version: Some(version),
                    step: self.step,
                    predicate: Some(text.clone()),
                };
                (j, edge)
            })
            .collect()
    }
}

/// Every (committed predicate read, row it did not match and did not write) of a row with
/// committed versions (`chains`), tables in `untracked` left out; `Err` when their rows have
/// more than [`MAX_POSSIBLE`] committed versions in all.
fn candidates<'a, 'c>(
    history: &'a History,
    txns: &Transactions,
    chains: &'c HashMap<&'a RowId, Chain<'a>>,
    untracked: &BTreeSet<String>,
) -> Result<Vec<Candidate<'a, 'c>>, ()> {
    // The reader's transaction, with its statements run on their own after an abort and its
    // writes a savepoint rollback undid: one group, named by the label's base.
    let base = |t: usize| txns.labels[t].split(['+', ' ']).next().unwrap_or_default();
    let mut written: HashMap<&str, HashSet<&RowId>> = HashMap::new();
    for (s, record) in history.steps.iter().enumerate() {
        let group = written.entry(base(txns.writer_of[s])).or_default();
        group.extend(
            record
                .accesses
                .iter()
                .flat_map(|a| &a.writes)
                .map(|w| &w.row),
        );
    }
    let mut by_table: HashMap<&str, Vec<(&RowId, &Chain)>> = HashMap::new();
    for (row, chain) in chains {
        by_table.entry(&row.table).or_default().push((row, chain));
    }
    let mut found = Vec::new();
    let mut possible = 0;
    for (step, record) in history.steps.iter().enumerate() {
        let reader = txns.of_step[step];
        let Some(accesses) = &record.accesses else {
            continue;
        };
        let [predicate] = accesses.predicates.as_slice() else {
            continue;
        };
        let has_subquery = (predicate.condition.as_deref())
            .is_some_and(|c| c.to_ascii_lowercase().contains("select"));
        if !txns.committed[reader] || has_subquery || untracked.contains(&predicate.table) {
            continue;
        }
        // (The parts of one transaction, [`Transactions::same`], share the label's base.)
        let wrote =
            |row: &RowId| (written.get(base(reader))).is_some_and(|rows| rows.contains(row));
        let rows = by_table
            .get(predicate.table.as_str())
            .map_or(&[][..], Vec::as_slice);
        for &(row, chain) in rows {
            if predicate.matched.iter().any(|m| &m.row == row) || wrote(row) {
                continue;
            }
            possible += chain.versions.len();
            if possible > MAX_POSSIBLE {
                return Err(());
            }
            found.push(Candidate {
                reader,
                step,
                predicate,
                row,
                chain,
            });
        }
    }
    Ok(found)
}

/// Per row, its states: how it began and its committed versions in version order. Rows whose
/// committed versions do not form one chain (two versions overwrote the same one) are left
/// out: which state a reader saw is not clear there.
fn committed_chains<'a>(
    history: &'a History,
    txns: &Transactions,
) -> HashMap<&'a RowId, Chain<'a>> {
    struct Write<'a> {
        txn: usize,
        version: Version,
        overwrote: Option<Version>,
        kind: WriteKind,
        image: &'a [Value],
    }
    let mut per_row: HashMap<&RowId, Vec<Write>> = HashMap::new();
    for (s, record) in history.steps.iter().enumerate() {
        let txn = txns.writer_of[s];
        if !txns.committed[txn] {
            continue;
        }
        for w in record.accesses.iter().flat_map(|a| &a.writes) {
            per_row.entry(&w.row).or_default().push(Write {
                txn,
                version: Version::Step(s),
                overwrote: w.overwrote,
                kind: w.kind,
                image: &w.image,
            });
        }
    }
    let mut chains = HashMap::new();
    'rows: for (row, writes) in per_row {
        let overwritten: HashSet<Option<Version>> = writes.iter().map(|w| w.overwrote).collect();
        let by_version: HashMap<Version, &Write> = writes.iter().map(|w| (w.version, w)).collect();
        let newest: Vec<&Write> = (writes.iter())
            .filter(|w| !overwritten.contains(&Some(w.version)))
            .collect();
        let [mut at] = newest.as_slice() else {
            continue;
        };
        let mut versions = Vec::new();
        loop {
            if versions.len() > writes.len() {
                // The versions overwrite each other in a circle: no chain.
                continue 'rows;
            }
            let image = (at.kind != WriteKind::Delete).then_some(at.image);
            versions.push((at.txn, at.version, image));
            let previous = match at.overwrote {
                Some(Version::Step(s)) => by_version.get(&Version::Step(s)).copied(),
                _ => None,
            };
            match previous {
                Some(w) if w.version != at.version => at = w,
                Some(_) => continue 'rows,
                None if matches!(at.overwrote, Some(Version::Step(_))) => continue 'rows,
                None => break,
            }
        }
        versions.reverse();
        let start = match at.overwrote {
            None if at.kind == WriteKind::Insert => Start::Absent,
            Some(Version::Init(i)) => (history.init_writes.get(i).into_iter().flatten())
                .find(|w| &w.row == row)
                .map_or(Start::Unknown, |w| Start::Setup(&w.image)),
            _ => Start::Unknown,
        };
        chains.insert(row, Chain { start, versions });
    }
    chains
}

/// Whether each version of `candidates` matches its predicate, asked of the target in one
/// execution: per question, the table emptied, the version's row inserted, its matches
/// counted. `None` where the target could not say (an error).
fn evaluate(
    case: &TestCase,
    history: &History,
    runner: &dyn Runner,
    candidates: &[Candidate],
) -> HashMap<String, Option<bool>> {
    let mut queries: Vec<(String, Query)> = candidates
        .iter()
        .flat_map(|c| {
            (c.chain.versions.iter())
                .filter_map(|(_, _, image)| *image)
                .chain(c.chain.start.image())
                .map(|image| c.query(image))
        })
        .map(|q| (q.key(&history.tables), q))
        .collect();
    queries.sort_by(|a, b| a.0.cmp(&b.0));
    queries.dedup_by(|a, b| a.0 == b.0);
    let dialect = txhunt_sql::dialect::for_family(runner.profile().family());
    let mut questions = Vec::new();
    let mut asked = Vec::new();
    for (key, query) in queries {
        let Some(meta) = history.tables.iter().find(|t| t.name == query.table) else {
            continue;
        };
        let table = query.table;
        let values: Vec<String> = query.image.iter().map(|v| dialect.literal(v)).collect();
        let filter = query
            .condition
            .map_or(String::new(), |c| format!(" WHERE {c}"));
        questions.extend([
            format!("DELETE FROM {table}"),
            format!(
                "INSERT INTO {table} ({}) VALUES ({})",
                meta.columns.join(", "),
                values.join(", ")
            ),
            format!("SELECT COUNT(*) FROM {table}{filter}"),
        ]);
        asked.push(key);
    }
    // The setup's schema (its rows would be deleted before any question), and no foreign key
    // checks: a version is asked about alone, without its parent rows.
    let schema: Vec<&str> = (case.init.iter())
        .filter(|s| !s.kind().is_write())
        .map(|s| s.sql.as_str())
        .chain([dialect.foreign_keys_off()])
        .collect();
    let questions: Vec<&str> = questions.iter().map(String::as_str).collect();
    let Ok(answers) = runner.ask(&schema, &questions, history.isolation) else {
        return HashMap::new();
    };
    asked
        .into_iter()
        .zip(answers.chunks(3))
        .map(|(query, records)| {
            let prepared = records[..2].iter().all(Outcome::succeeded);
            let count = match &records[2] {
                Outcome::Rows { rows, .. } if prepared => rows.first().and_then(|r| r.first()),
                _ => None,
            };
            let matches = match count {
                Some(Value::Int(n)) => Some(*n > 0),
                Some(Value::Decimal(d)) => d.parse::<f64>().ok().map(|n| n > 0.0),
                _ => None,
            };
            (query, matches)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reader 0 did not match a row whose one later version transaction 1 installed, and
    /// transaction 1 wrote another row reader 0 read (an item wr edge 1 → 0).
    fn one_version_missed_by_reader() -> (Dsg, Predicate, RowId, Chain<'static>) {
        let row = RowId {
            table: "t".into(),
            rid: 7,
        };
        let read = Edge {
            from: 1,
            to: 0,
            kind: Kind::Wr,
            row: RowId {
                table: "t".into(),
                rid: 8,
            },
            version: Some(Version::Step(3)),
            step: 5,
            predicate: None,
        };
        let predicate = Predicate {
            table: "t".into(),
            condition: Some("v > 5".into()),
            matched: Vec::new(),
        };
        let chain = Chain {
            start: Start::Absent,
            versions: vec![(1, Version::Step(2), Some(&[]))],
        };
        (Dsg { edges: vec![read] }, predicate, row, chain)
    }

    #[test]
    fn a_candidate_never_both_reads_from_and_misses_one_version() {
        let (dsg, predicate, row, chain) = one_version_missed_by_reader();
        let candidate = Candidate {
            reader: 0,
            step: 4,
            predicate: &predicate,
            row: &row,
            chain: &chain,
        };
        let candidates = [candidate];
        let budget = Duration::from_secs(5);
        // Whatever the target answers, the reader read from transaction 1 or missed its
        // version: with the rw edge, 0 → 1 → 0 is G-single; with the wr edge, no cycle.
        let graph = tentative(&dsg, &candidates, 2, MAX_POSSIBLE);
        let found = phenomena(&cycles::search(&graph, budget));
        let single = (txhunt_model::adya::Phenomenon::GSingle, true);
        assert_eq!(found.into_iter().collect::<Vec<_>>(), [single]);
        // The candidate's wr edge leads to the reader's copy, which may not leave by the
        // candidate's rw edge to the same version.
        let copy = 2;
        assert!(graph
            .edges
            .iter()
            .any(|e| e.to == copy && e.kind == Kind::Wr));
        assert!(!graph
            .edges
            .iter()
            .any(|e| e.from == copy && e.kind == Kind::Rw && e.to == 1));
        // Without the item edge, the candidate's two edges alone close no cycle.
        let alone = tentative(&Dsg { edges: Vec::new() }, &candidates, 2, MAX_POSSIBLE);
        assert!(cycles::search(&alone, budget).cycles.is_empty());
        // With no room for copies, the wr edge reaches the reader: more cycles, never fewer.
        let crowded = tentative(&Dsg { edges: Vec::new() }, &candidates, 2, 0);
        let found = phenomena(&cycles::search(&crowded, budget));
        assert_eq!(found.into_iter().collect::<Vec<_>>(), [single]);
    }
}
