//! Predicate anti-dependencies (Adya: a transaction *overwrites* a predicate read when it
//! installs a version that changes the rows the predicate matched): `t1 -rw-> t2` when `t1`'s
//! WHERE clause did not match a row and `t2` inserted or updated that row so that it does.
//!
//! A predicate's matched rows are recorded, the rows it did not match are not. So an edge is
//! drawn only where the history leaves no doubt which state of the row the predicate saw:
//! * the predicate is the only one its statement evaluated (one table: no join, no
//!   subquery), and its condition has no subquery, so that whether a row matches depends on
//!   the row alone;
//! * the row's committed versions end in a run of inserts and updates that all match (the
//!   *suffix*); the predicate matched none of the row's versions, so it saw a state before the
//!   suffix, and every version of the suffix changed what it would match: each one's
//!   installer anti-depends on the reader.
//!
//! Whether a version matches is asked of the target itself (its types, collations and
//! functions decide, not a re-implementation): the version's row alone in its table, then
//! `SELECT COUNT(*) … WHERE condition`. That costs one extra execution, so it is done only when
//! the unconfirmed edges would show a phenomenon the item dependencies do not; a version
//! whose match cannot be decided (an error) draws no edge.

use super::cycles::{self, Search};
use super::{Dsg, Edge, Kind, Transactions};
use std::collections::{BTreeSet, HashMap};
use std::time::Duration;
use txhunt_exec::Runner;
use txhunt_model::access::{Predicate, RowId, Version, WriteKind};
use txhunt_model::{History, Outcome, Step, Stmt, TestCase, Value};

/// The cycles of `dsg`, with the predicate anti-dependencies that change its phenomena added
/// to it once the target confirmed them.
/// Tables in `untracked` get no predicate dependencies (what their rows were is not known).
pub fn search(
    (case, history, txns): (&TestCase, &History, &Transactions),
    dsg: &mut Dsg,
    untracked: &BTreeSet<String>,
    runner: &dyn Runner,
    budget: Duration,
) -> Search {
    let items = cycles::search(dsg, budget);
    let mut candidates = candidates(history, txns);
    candidates.retain(|c| !untracked.contains(&c.predicate.table));
    if candidates.is_empty() {
        return items;
    }
    let mut tentative = dsg.clone();
    tentative
        .edges
        .extend(candidates.iter().flat_map(|c| c.edges(c.versions.len())));
    if phenomena(&cycles::search(&tentative, budget)) == phenomena(&items) {
        return items;
    }
    let verdicts = evaluate(case, history, runner, &candidates);
    for candidate in &candidates {
        let matching = candidate
            .versions
            .iter()
            .take_while(|v| verdicts.get(&candidate.query(v).key()) == Some(&Some(true)))
            .count();
        dsg.edges.extend(candidate.edges(matching));
    }
    cycles::search(dsg, budget)
}

/// The phenomena a search found, with whether each cycle has a predicate anti-dependency.
fn phenomena(search: &Search) -> BTreeSet<(txhunt_model::adya::Phenomenon, bool)> {
    search
        .cycles
        .iter()
        .map(|c| (c.class, c.edges.iter().any(Edge::is_predicate_rw)))
        .collect()
}

/// A committed version of a row: its installing transaction, the version, the row's columns.
type Installed<'a> = (usize, Version, &'a [Value]);

/// A predicate that did not match a row, and the row's last committed versions, newest
/// first, that might each have matched it.
struct Candidate<'a> {
    /// The reading transaction.
    reader: usize,
    /// Its step that evaluated the predicate.
    step: usize,
    /// The predicate.
    predicate: &'a Predicate,
    /// The row.
    row: &'a RowId,
    /// Its committed versions from the newest back to the first delete, newest first: the
    /// installing transaction, the version, the row's columns in it.
    versions: Vec<Installed<'a>>,
}

/// What to ask the target: does this row (its columns) of this table match this condition?
struct Query<'a> {
    table: &'a str,
    condition: Option<&'a str>,
    image: &'a [Value],
}

impl Query<'_> {
    /// The question as a key (values are not hashable: floats).
    fn key(&self) -> String {
        format!("{}|{:?}|{:?}", self.table, self.condition, self.image)
    }
}

impl Candidate<'_> {
    /// The anti-dependencies on the newest `matching` versions.
    fn edges(&self, matching: usize) -> impl Iterator<Item = Edge> + '_ {
        let text = match &self.predicate.condition {
            Some(c) => format!("{} WHERE {c}", self.predicate.table),
            None => self.predicate.table.clone(),
        };
        self.versions[..matching]
            .iter()
            .filter(move |(installer, ..)| *installer != self.reader)
            .map(move |&(installer, version, _)| Edge {
                from: self.reader,
                to: installer,
                kind: Kind::Rw,
                row: self.row.clone(),
                version: Some(version),
                step: self.step,
                predicate: Some(text.clone()),
            })
    }

    /// The question whether `version` matches the predicate.
    fn query<'b>(&'b self, version: &Installed<'b>) -> Query<'b> {
        Query {
            table: &self.predicate.table,
            condition: self.predicate.condition.as_deref(),
            image: version.2,
        }
    }
}

/// Every (committed predicate read, row it did not match) whose row has committed versions
/// that might have matched.
fn candidates<'a>(history: &'a History, txns: &Transactions) -> Vec<Candidate<'a>> {
    let chains = committed_chains(history, txns);
    let mut found = Vec::new();
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
        if !txns.committed[reader] || has_subquery {
            continue;
        }
        for (row, versions) in chains.iter().filter(|(r, _)| r.table == predicate.table) {
            if predicate.matched.iter().any(|m| &m.row == *row) {
                continue;
            }
            found.push(Candidate {
                reader,
                step,
                predicate,
                row,
                versions: versions.clone(),
            });
        }
    }
    found
}

/// Per row, its committed versions from the newest back to (not including) its newest
/// delete, newest first. Rows whose committed versions do not form one chain (two versions
/// overwrote the same one) are left out: which state a reader saw is not clear there.
fn committed_chains<'a>(
    history: &'a History,
    txns: &Transactions,
) -> HashMap<&'a RowId, Vec<Installed<'a>>> {
    struct Write<'a> {
        txn: usize,
        version: Version,
        overwrote: Option<Version>,
        kind: WriteKind,
        image: &'a [Value],
    }
    let mut per_row: HashMap<&RowId, Vec<Write>> = HashMap::new();
    for (s, record) in history.steps.iter().enumerate() {
        let txn = txns.of_step[s];
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
    for (row, installed) in per_row {
        let overwritten: Vec<Option<Version>> = installed.iter().map(|i| i.overwrote).collect();
        let newest: Vec<&Write> = installed
            .iter()
            .filter(|i| !overwritten.contains(&Some(i.version)))
            .collect();
        let [mut at] = newest.as_slice() else {
            continue;
        };
        let mut chain = Vec::new();
        loop {
            if at.kind == WriteKind::Delete {
                break;
            }
            chain.push((at.txn, at.version, at.image));
            match installed.iter().find(|i| Some(i.version) == at.overwrote) {
                Some(previous) if previous.version != at.version => at = previous,
                _ => break,
            }
        }
        if !chain.is_empty() {
            chains.insert(row, chain);
        }
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
        .flat_map(|c| c.versions.iter().map(|v| c.query(v)))
        .map(|q| (q.key(), q))
        .collect();
    queries.sort_by(|a, b| a.0.cmp(&b.0));
    queries.dedup_by(|a, b| a.0 == b.0);
    let dialect = txhunt_sql::dialect::for_family(runner.profile().family());
    let mut probe = TestCase {
        init: case.init.clone(),
        ..TestCase::default()
    };
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
        for sql in [
            format!("DELETE FROM {table}"),
            format!(
                "INSERT INTO {table} ({}) VALUES ({})",
                meta.columns.join(", "),
                values.join(", ")
            ),
            format!("SELECT COUNT(*) FROM {table}{filter}"),
        ] {
            probe.steps.push(Step {
                session: "t1".into(),
                stmt: Stmt::new(sql),
            });
        }
        asked.push(key);
    }
    let Ok(answers) = runner.run(&probe, history.isolation) else {
        return HashMap::new();
    };
    asked
        .into_iter()
        .zip(answers.steps.chunks(3))
        .map(|(query, records)| {
            let prepared = records[..2].iter().all(|r| r.outcome.succeeded());
            let count = match &records[2].outcome {
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
