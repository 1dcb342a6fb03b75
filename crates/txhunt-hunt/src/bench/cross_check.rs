//! `txhunt bench cross-check`: the DSG oracle ([`txhunt_oracle::dsg`]) against an independent
//! checker, on the same instrumented runs of generated cases: whether the committed
//! transactions are serializable, and whether they are snapshot-isolated.
//!
//! The DSG's verdict: a run is *serializable* iff the oracle found none of G0, G1a, G1b, G1c,
//! G-single, G2-item and G2; *snapshot-isolated* iff it found none of G0, G1a, G1b, G1c and
//! G-single (write skew, a G2-item or G2 cycle with two or more anti-dependencies, is allowed).
//!
//! The checkers ([`Checker`]):
//!
//! * **dbcop** (Biswas & Enea, OOPSLA 2019; `dbcop verify --consistency serializable` and
//!   `snapshot-isolation`) judges the run's dbcop export ([`crate::export`]). It infers each
//!   row's version order itself (its *commit order* must explain every read), orders each
//!   session's transactions, and knows no predicates.
//! * **brute force** (here) tries every order of the run's committed transactions (at most
//!   [`BRUTE_FORCE_LIMIT`]) on the recorded reads and writes themselves, not on the DSG's
//!   edges. *Serializable*: some order in which every read returns the version the last
//!   earlier transaction in the order installed on that row (the reader's own earlier write,
//!   if it wrote the row; the initial version if no transaction did), and every write replaces
//!   the version the order says was there (the recorded version order: the version it
//!   overwrote, skipping versions of transactions that did not commit). *Snapshot-isolated*:
//!   some order of every transaction's start and commit in which every read returns the
//!   version committed last before its transaction started (its own write, if it wrote the row
//!   first), every write replaces the version committed last before its commit, and no two
//!   transactions that wrote one row overlap (first committer wins).
//!
//! Both checkers take an UPDATE's or DELETE's write as a read of the version it replaced, then
//! a write (the engine found that version to replace it), and a transaction's statements
//! undone by `ROLLBACK TO SAVEPOINT` as writing nothing (their versions are uncommitted ones)
//! but keep their reads.
//!
//! What the checkers cannot see: a predicate read's matched rows are item reads in both, but a
//! row a predicate did *not* match is not recorded (a phantom insert, a row a later scan no
//! longer returned because another transaction deleted it), so they judge item reads only;
//! the DSG also has predicate dependencies and may find cycles they cannot. A run with a
//! statement that instrumentation could not track and that may have written rows no judge
//! knows of, or whose DSG search ran out of time, is skipped; other untracked reads are missing
//! for every judge alike.

use super::BenchError;
use crate::export::{export, write, HistoryFormat};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::{self, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::str::FromStr;
use std::time::{Duration, Instant};
use txhunt_db::Target;
use txhunt_exec::{Executor, TargetRunner};
use txhunt_model::access::{RowId, Version, WriteKind};
use txhunt_model::adya::Phenomenon;
use txhunt_model::{History, Isolation, Outcome, StmtKind, TestCase, TxnStatus};
use txhunt_oracle::dsg::{analyse, Analysis};
use txhunt_sql::{dialect, generate, GenConfig};

/// The most committed transactions the brute force judges (5! serial orders, 10!/2⁵ orders of
/// starts and commits).
pub const BRUTE_FORCE_LIMIT: usize = 5;

/// How long dbcop may take over one history and one property.
const DBCOP_TIMEOUT: Duration = Duration::from_secs(60);

/// How many seeds a skip reason keeps as examples.
const EXAMPLES: usize = 5;

/// An independent judge of a run's committed transactions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Checker {
    /// dbcop's `verify`, the binary at this path, on the run's dbcop export.
    Dbcop(PathBuf),
    /// Every order of the committed transactions, for runs of at most [`BRUTE_FORCE_LIMIT`].
    BruteForce,
}

impl Checker {
    /// `dbcop` or `brute-force`.
    pub fn name(&self) -> &'static str {
        match self {
            Checker::Dbcop(_) => "dbcop",
            Checker::BruteForce => "brute-force",
        }
    }
}

impl FromStr for Checker {
    type Err = String;

    /// `brute-force`, or `dbcop=PATH` (the `dbcop` binary).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.split_once('=') {
            None if text == "brute-force" => Ok(Checker::BruteForce),
            Some(("dbcop", path)) if !path.is_empty() => Ok(Checker::Dbcop(path.into())),
            _ => Err(format!(
                "unknown checker '{text}'; accepted: brute-force, dbcop=PATH"
            )),
        }
    }
}

/// A property of a run's committed transactions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Property {
    /// Serializable: equivalent to some serial order.
    Serializable,
    /// Snapshot isolation.
    SnapshotIsolation,
}

impl Property {
    /// Both properties.
    pub const ALL: [Property; 2] = [Property::Serializable, Property::SnapshotIsolation];

    /// `serializable` or `snapshot-isolation`.
    pub fn name(self) -> &'static str {
        match self {
            Property::Serializable => "serializable",
            Property::SnapshotIsolation => "snapshot-isolation",
        }
    }

    /// Whether a run that shows `phenomenon` lacks the property (the DSG's verdict).
    pub fn broken_by(self, phenomenon: Phenomenon) -> bool {
        use Phenomenon::*;
        match self {
            Property::Serializable => true,
            Property::SnapshotIsolation => matches!(phenomenon, G0 | G1a | G1b | G1c | GSingle),
        }
    }
}

/// What `txhunt bench cross-check` runs.
#[derive(Debug, Clone)]
pub struct CrossCheckConfig {
    /// Generated cases to run.
    pub cases: usize,
    /// The first case's seed (the others follow it).
    pub seed: u64,
    /// The level every case runs at.
    pub isolation: Isolation,
    /// The checkers, each asked about every run.
    pub checkers: Vec<Checker>,
    /// Where to write the txhunt JSON and dbcop histories of every disagreement and of every
    /// history a checker refused, if anywhere.
    pub keep: Option<PathBuf>,
}

/// Runs skipped for one reason.
#[derive(Debug, Default, Serialize)]
pub struct Skipped {
    /// How many.
    pub count: usize,
    /// The first few of their seeds.
    pub seeds: Vec<u64>,
}

/// One checker's agreement with the DSG on one property.
#[derive(Debug, Serialize)]
pub struct Tally {
    /// The checker's name.
    pub checker: &'static str,
    /// The property.
    pub property: Property,
    /// Runs both judged.
    pub checked: usize,
    /// Runs both say have the property.
    pub both_hold: usize,
    /// Runs both say lack it.
    pub both_violated: usize,
    /// Runs only the DSG says lack it.
    pub dsg_only: usize,
    /// Runs only the checker says lack it.
    pub checker_only: usize,
    /// Runs the checker could not judge, by reason.
    pub skipped: BTreeMap<String, Skipped>,
}

impl Tally {
    /// Runs both judged alike.
    pub fn agree(&self) -> usize {
        self.both_hold + self.both_violated
    }
}

/// A run the DSG and a checker judged differently.
#[derive(Debug, Serialize)]
pub struct Disagreement {
    /// The case's seed.
    pub seed: u64,
    /// The checker.
    pub checker: &'static str,
    /// The property.
    pub property: Property,
    /// Whether the DSG says the run has it.
    pub dsg_holds: bool,
    /// Whether the checker says so.
    pub checker_holds: bool,
    /// The phenomena the DSG found, each with its cycle edge by edge.
    pub dsg: Vec<String>,
    /// What the checker said (its witness or its error).
    pub checker_says: String,
}

/// The whole run of `txhunt bench cross-check`.
#[derive(Debug, Serialize)]
pub struct CrossCheckReport {
    /// The target's name.
    pub target: String,
    /// The level the cases ran at.
    pub isolation: Isolation,
    /// The first case's seed.
    pub seed: u64,
    /// Cases generated.
    pub cases: usize,
    /// Runs no checker was asked about, by reason.
    pub skipped: BTreeMap<String, Skipped>,
    /// Per checker and property, in the order the checkers were given.
    pub tallies: Vec<Tally>,
    /// Every disagreement.
    pub disagreements: Vec<Disagreement>,
}

/// A checker's answer about one run and property: whether it holds and why (the witness or
/// the violation), or why it could not judge.
type Verdict = Result<(bool, String), String>;

/// Runs `config.cases` generated cases on `target` instrumented, analyses each with the DSG
/// oracle and asks every checker of `config` about both properties.
pub fn cross_check(
    target: &dyn Target,
    config: &CrossCheckConfig,
) -> Result<CrossCheckReport, BenchError> {
    let dialect = dialect::for_family(target.profile().family());
    let executor = Executor {
        instrument: true,
        ..Executor::default()
    };
    let runner = TargetRunner { executor, target };
    let scratch = Scratch::new()?;
    let mut report = CrossCheckReport {
        target: target.name(),
        isolation: config.isolation,
        seed: config.seed,
        cases: config.cases,
        skipped: BTreeMap::new(),
        tallies: (config.checkers.iter())
            .flat_map(|c| {
                Property::ALL.map(|property| Tally {
                    checker: c.name(),
                    property,
                    checked: 0,
                    both_hold: 0,
                    both_violated: 0,
                    dsg_only: 0,
                    checker_only: 0,
                    skipped: BTreeMap::new(),
                })
            })
            .collect(),
        disagreements: Vec::new(),
    };
    for i in 0..config.cases {
        let seed = config.seed + i as u64;
        let case = generate(seed, &GenConfig::default(), dialect, config.isolation, None).case;
        let history = match executor.execute(target, &case, config.isolation) {
            Ok(history) => history,
            Err(e) => {
                skip(&mut report.skipped, format!("run failed: {e}"), seed);
                continue;
            }
        };
        if let Some(reason) = untracked(&case, &history) {
            skip(&mut report.skipped, reason, seed);
            continue;
        }
        let analysis = analyse(&case, &history, &runner);
        if !analysis.unknown.is_empty() {
            skip(
                &mut report.skipped,
                "DSG search ran out of time".into(),
                seed,
            );
            continue;
        }
        let mut keep = false;
        for (c, checker) in config.checkers.iter().enumerate() {
            let verdicts = judge(checker, &case, &history, &scratch);
            for (p, (property, verdict)) in Property::ALL.into_iter().zip(verdicts).enumerate() {
                let tally = &mut report.tallies[c * Property::ALL.len() + p];
                let (holds, says) = match verdict {
                    Ok(judged) => judged,
                    Err(reason) => {
                        keep |= reason.starts_with("dbcop");
                        skip(&mut tally.skipped, reason, seed);
                        continue;
                    }
                };
                let dsg_holds = !analysis
                    .anomalies
                    .iter()
                    .any(|a| property.broken_by(a.class));
                tally.checked += 1;
                match (dsg_holds, holds) {
                    (true, true) => tally.both_hold += 1,
                    (false, false) => tally.both_violated += 1,
                    (false, true) => tally.dsg_only += 1,
                    (true, false) => tally.checker_only += 1,
                }
                if dsg_holds != holds {
                    keep = true;
                    report.disagreements.push(Disagreement {
                        seed,
                        checker: checker.name(),
                        property,
                        dsg_holds,
                        checker_holds: holds,
                        dsg: explain(&analysis),
                        checker_says: says,
                    });
                }
            }
        }
        if let (true, Some(dir)) = (keep, &config.keep) {
            std::fs::create_dir_all(dir)?;
            let stem = dir.join(format!("seed-{seed}"));
            for format in [HistoryFormat::Json, HistoryFormat::Dbcop] {
                write(&stem, format, &case, &history)?;
            }
        }
    }
    Ok(report)
}

/// Adds `seed` to the runs skipped for `reason`.
fn skip(skipped: &mut BTreeMap<String, Skipped>, reason: String, seed: u64) {
    let entry = skipped.entry(reason).or_default();
    entry.count += 1;
    if entry.seeds.len() < EXAMPLES {
        entry.seeds.push(seed);
    }
}

/// Why no checker can judge `history`, a run of `case`, if one cannot: a statement that
/// succeeded, was not (or not wholly) tracked and may have written rows instrumentation did
/// not record: one that is not a SELECT, UPDATE or DELETE (`INSERT … SELECT`, `REPLACE`,
/// DDL), or an UPDATE or DELETE that changed rows none of which was recorded. The untracked
/// reads of the others (a subquery's rows, where no version set may be read) are missing for
/// every judge alike.
fn untracked(case: &TestCase, history: &History) -> Option<String> {
    let lacking = (case.steps.iter().zip(&history.steps)).find(|(step, record)| {
        let Some(accesses) = record.accesses.as_ref() else {
            return record.outcome.succeeded();
        };
        let wrote_unseen = match step.stmt.kind() {
            StmtKind::Select => false,
            StmtKind::Update | StmtKind::Delete => {
                accesses.writes.is_empty() && record.outcome != Outcome::Affected { count: 0 }
            }
            _ => true,
        };
        record.outcome.succeeded() && !accesses.untracked.is_empty() && wrote_unseen
    });
    lacking.map(|(step, _)| {
        let kind = format!("{:?}", step.stmt.kind()).to_ascii_uppercase();
        format!("an untracked {kind} statement may have written")
    })
}

/// The DSG's anomalies, each as `G-single (lost-update): t1 -rw-> t2 …; t2 -ww-> t1 …`.
fn explain(analysis: &Analysis) -> Vec<String> {
    (analysis.anomalies.iter())
        .map(|a| {
            let name = match a.refinement {
                Some(r) => format!("{} ({})", a.class, r.name()),
                None => a.class.to_string(),
            };
            format!("{name}: {}", a.explain(&analysis.txns).join("; "))
        })
        .collect()
}

/// `checker`'s verdicts on `history`, a run of `case`, for [`Property::ALL`] in order.
fn judge(checker: &Checker, case: &TestCase, history: &History, scratch: &Scratch) -> [Verdict; 2] {
    match checker {
        Checker::BruteForce => {
            let txns = committed(case, history);
            if txns.len() > BRUTE_FORCE_LIMIT {
                let reason = format!("more than {BRUTE_FORCE_LIMIT} committed transactions");
                return [Err(reason.clone()), Err(reason)];
            }
            Property::ALL.map(|property| {
                Ok(match brute_force(&txns, property) {
                    Some(order) => (true, format!("order {order}")),
                    None => (false, format!("no order of {} transactions", txns.len())),
                })
            })
        }
        Checker::Dbcop(binary) => {
            let text = match export(HistoryFormat::Dbcop, case, history) {
                Ok(text) => text,
                Err(e) => return [Err(e.to_string()), Err(e.to_string())],
            };
            if let Err(e) = std::fs::write(scratch.0.join("history.json"), text) {
                let reason = format!("cannot write the history: {e}");
                return [Err(reason.clone()), Err(reason)];
            }
            Property::ALL.map(|property| dbcop(binary, &scratch.0, property))
        }
    }
}

/// A directory of this process's own for dbcop's input, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> std::io::Result<Scratch> {
        let dir = std::env::temp_dir().join(format!("txhunt-cross-check-{}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        Ok(Scratch(dir))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `dbcop verify` of the one history in `dir` for `property`.
fn dbcop(binary: &Path, dir: &Path, property: Property) -> Verdict {
    let consistency = match property {
        Property::Serializable => "serializable",
        Property::SnapshotIsolation => "snapshot-isolation",
    };
    let mut child = Command::new(binary)
        .args([
            "verify",
            "--json",
            "--consistency",
            consistency,
            "--input-dir",
        ])
        .arg(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("dbcop did not start: {e}"))?;
    let started = Instant::now();
    while child
        .try_wait()
        .map_err(|e| format!("dbcop: {e}"))?
        .is_none()
    {
        if started.elapsed() > DBCOP_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("dbcop took over {} s", DBCOP_TIMEOUT.as_secs()));
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let output = child
        .wait_with_output()
        .map_err(|e| format!("dbcop: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let Some(line) = stdout.lines().find(|l| l.starts_with('{')) else {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let first = stderr.lines().next().unwrap_or("no output");
        return Err(format!("dbcop failed: {first}"));
    };
    let answer: serde_json::Value =
        serde_json::from_str(line).map_err(|e| format!("dbcop's answer is not JSON: {e}"))?;
    if answer["ok"] == true {
        return Ok((true, "PASS".into()));
    }
    let error = answer["error"].as_str().unwrap_or("?").to_string();
    // A history dbcop cannot read as one (a read of no write, a version written twice) is
    // the export's fault, not a verdict.
    for malformed in ["IncompleteHistory", "SameVersionWrite"] {
        if error.contains(malformed) {
            return Err(format!("dbcop refused the history: {malformed}"));
        }
    }
    Ok((false, error))
}

/// A version as the brute force compares them: `None` the initial one (the setup's, or one
/// no instrumented statement wrote), `Some(s)` step `s`'s.
type Ver = Option<usize>;

/// One committed transaction of a run, reduced to what the orders are checked against.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Txn {
    /// Its label (`t2`, or `t2+` for a statement that ran on its own after `t2` aborted).
    label: String,
    /// Whether its reads of its own writes are consistent (each returns its latest write of
    /// the row; none of a row it wrote returns another's version; each write replaces its own
    /// earlier version of the row): otherwise no order explains it.
    consistent: bool,
    /// Its reads of versions it did not write: (row, version).
    reads: Vec<(usize, Ver)>,
    /// Its first write of each row it wrote: (row, the committed version it replaced).
    replaces: Vec<(usize, Ver)>,
    /// The version of each row it wrote that it left: (row, version).
    installs: Vec<(usize, usize)>,
}

/// The committed transactions of `history`, a run of `case`, that read or wrote a row: each
/// committed transaction of the case, and after an error aborted one, each of its later
/// statements that succeeded (it ran in autocommit mode). What a `ROLLBACK TO SAVEPOINT`
/// undid is not installed (its versions are uncommitted ones); the transaction's reads in the
/// undone statements still count.
fn committed(case: &TestCase, history: &History) -> Vec<Txn> {
    let mut units: Vec<(String, Vec<usize>)> = Vec::new();
    for (txn, record) in case.txns().iter().zip(&history.txns) {
        match record.status {
            TxnStatus::Committed => units.push((txn.label.clone(), txn.steps.clone())),
            TxnStatus::Aborted { step, .. } => {
                for &s in txn.steps.iter().filter(|&&s| s > step) {
                    let control = case.steps[s].stmt.kind().is_transaction_control();
                    if !control && history.steps[s].outcome.succeeded() {
                        units.push((format!("{}+", txn.label), vec![s]));
                    }
                }
            }
            TxnStatus::RolledBack | TxnStatus::Unfinished => {}
        }
    }
    // Per (row, step): the version that step's write of the row replaced.
    let mut replaced: HashMap<(&RowId, usize), Option<Version>> = HashMap::new();
    let mut rows: BTreeMap<&RowId, usize> = BTreeMap::new();
    for (s, record) in history.steps.iter().enumerate() {
        let Some(a) = &record.accesses else {
            continue;
        };
        for w in &a.writes {
            replaced.entry((&w.row, s)).or_insert(w.overwrote);
            rows.insert(&w.row, 0);
        }
        for r in &a.reads {
            rows.insert(&r.row, 0);
        }
    }
    for (number, n) in rows.values_mut().zip(0..) {
        *number = n;
    }
    let unit = Unit {
        case,
        history,
        rows: &rows,
    };
    // The steps whose versions were installed: the committed ones' that no savepoint undid.
    let mut installed: HashSet<usize> = units.iter().flat_map(|(_, s)| s.clone()).collect();
    for (_, steps) in &units {
        for s in unit
            .build(String::new(), steps, &|_, v| effective_read(v))
            .1
        {
            installed.remove(&s);
        }
    }
    // The committed version `version` stands for: a version that was not installed (aborted,
    // rolled back, undone) is skipped over to the version it replaced.
    let effective = |row: &RowId, mut version: Option<Version>| -> Ver {
        for _ in 0..=history.steps.len() {
            let Some(Version::Step(s)) = version.filter(|v| match v {
                Version::Step(s) => !installed.contains(s),
                Version::Init(_) => false,
            }) else {
                break;
            };
            match replaced.get(&(row, s)) {
                Some(&before) if before != Some(Version::Step(s)) => version = before,
                _ => break,
            }
        }
        effective_read(version)
    };
    (units.into_iter())
        .filter_map(|(label, steps)| unit.build(label, &steps, &effective).0)
        .collect()
}

/// What [`Unit::build`] reads.
struct Unit<'a> {
    case: &'a TestCase,
    history: &'a History,
    /// The rows, numbered.
    rows: &'a BTreeMap<&'a RowId, usize>,
}

impl Unit<'_> {
    /// The committed transaction `label` of the statements `steps`, in order (`None` if it read
    /// and wrote no row), each first write's replaced version as `effective` says, and the
    /// steps a `ROLLBACK TO SAVEPOINT` undid.
    fn build(
        &self,
        label: String,
        steps: &[usize],
        effective: &dyn Fn(&RowId, Option<Version>) -> Ver,
    ) -> (Option<Txn>, Vec<usize>) {
        let mut txn = Txn {
            label,
            consistent: true,
            reads: Vec::new(),
            replaces: Vec::new(),
            installs: Vec::new(),
        };
        // Per row, the transaction's latest write of it.
        let mut latest: BTreeMap<usize, usize> = BTreeMap::new();
        // The savepoints in force: name, position in `steps`, `latest` and first writes then.
        let mut savepoints: Vec<(String, usize, BTreeMap<usize, usize>, usize)> = Vec::new();
        let mut undone = Vec::new();
        let mut touched = false;
        for (at, &s) in steps.iter().enumerate() {
            let record = &self.history.steps[s];
            let stmt = &self.case.steps[s].stmt;
            let name = || savepoint_name(&stmt.sql);
            match stmt.kind() {
                _ if !record.outcome.succeeded() => {}
                StmtKind::Savepoint => {
                    savepoints.push((name(), at, latest.clone(), txn.replaces.len()));
                }
                StmtKind::Release => {
                    if let Some(i) = savepoints.iter().rposition(|p| p.0 == name()) {
                        savepoints.truncate(i);
                    }
                }
                StmtKind::RollbackTo => {
                    if let Some(i) = savepoints.iter().rposition(|p| p.0 == name()) {
                        let (_, set_at, then, writes) = savepoints[i].clone();
                        undone.extend_from_slice(&steps[set_at + 1..at]);
                        latest = then;
                        txn.replaces.truncate(writes);
                        savepoints.truncate(i + 1);
                    }
                }
                _ => {}
            }
            let Some(a) = record.accesses.as_ref() else {
                continue;
            };
            for r in &a.reads {
                touched = true;
                let row = self.rows[&r.row];
                match r.version {
                    Some(Version::Step(v)) if steps.contains(&v) => {
                        let same_statement = v == s && a.writes.iter().any(|w| w.row == r.row);
                        if latest.get(&row) != Some(&v) && !same_statement {
                            txn.consistent = false;
                        }
                    }
                    version => {
                        if latest.contains_key(&row) {
                            txn.consistent = false;
                        }
                        txn.reads.push((row, effective_read(version)));
                    }
                }
            }
            for w in &a.writes {
                touched = true;
                let row = self.rows[&w.row];
                match latest.get(&row) {
                    Some(&mine) if mine == s => {} // a statement that wrote the row twice
                    Some(&mine) => {
                        if w.overwrote != Some(Version::Step(mine)) {
                            txn.consistent = false;
                        }
                    }
                    None => {
                        let replaced = effective(&w.row, w.overwrote);
                        if w.kind != WriteKind::Insert {
                            // It found that version to replace: a read of it too.
                            txn.reads.push((row, replaced));
                        }
                        txn.replaces.push((row, replaced));
                    }
                }
                latest.insert(row, s);
            }
        }
        txn.installs = latest.into_iter().collect();
        (touched.then_some(txn), undone)
    }
}

/// The savepoint a `SAVEPOINT`, `RELEASE` or `ROLLBACK TO` statement names: its last word,
/// unquoted, in lower case.
fn savepoint_name(sql: &str) -> String {
    let last = sql
        .trim()
        .trim_end_matches(';')
        .rsplit(char::is_whitespace)
        .next();
    last.unwrap_or("")
        .trim_matches(|c| c == '"' || c == '`')
        .to_ascii_lowercase()
}

/// The version a read of `version` returned, as the brute force compares them: a read of an
/// uncommitted version stays that version, which no order installs.
fn effective_read(version: Option<Version>) -> Ver {
    match version {
        Some(Version::Step(s)) => Some(s),
        Some(Version::Init(_)) | None => None,
    }
}

/// An order of `txns` that shows `property`, written out (`t1 t3 t2`, or for snapshot
/// isolation each start and commit: `s:t1 s:t2 c:t1 c:t2`), if there is one.
fn brute_force(txns: &[Txn], property: Property) -> Option<String> {
    if txns.iter().any(|t| !t.consistent) {
        return None;
    }
    let rows = (txns.iter())
        .flat_map(|t| {
            let reads = t.reads.iter().map(|r| r.0);
            let writes = t.replaces.iter().map(|r| r.0);
            reads.chain(writes).chain(t.installs.iter().map(|r| r.0))
        })
        .max()
        .map_or(0, |r| r + 1);
    let mut search = Search {
        txns,
        serial: property == Property::Serializable,
        state: vec![None; rows],
        snapshots: vec![None; txns.len()],
        committed: vec![false; txns.len()],
        order: Vec::new(),
    };
    if !search.run() {
        return None;
    }
    let steps = (search.order.iter()).map(|&(t, commit)| {
        let label = &txns[t].label;
        match (search.serial, commit) {
            (true, _) => label.clone(),
            (false, false) => format!("s:{label}"),
            (false, true) => format!("c:{label}"),
        }
    });
    Some(steps.collect::<Vec<_>>().join(" "))
}

/// A depth-first search over the orders of starts and commits.
struct Search<'a> {
    txns: &'a [Txn],
    /// Each start directly followed by its commit.
    serial: bool,
    /// Per row, the version committed last.
    state: Vec<Ver>,
    /// Per started transaction, the state it started on.
    snapshots: Vec<Option<Vec<Ver>>>,
    committed: Vec<bool>,
    /// The starts (`false`) and commits (`true`) so far; a serial order lists commits only.
    order: Vec<(usize, bool)>,
}

impl Search<'_> {
    /// Whether the order so far can be completed.
    fn run(&mut self) -> bool {
        if self.committed.iter().all(|&c| c) {
            return true;
        }
        for t in 0..self.txns.len() {
            if self.committed[t] {
                continue;
            }
            if self.snapshots[t].is_some() {
                if self.commit(t) {
                    return true;
                }
            } else if self.start(t) {
                return true;
            }
        }
        false
    }

    /// Starts `t` if its reads fit the state, and goes on.
    fn start(&mut self, t: usize) -> bool {
        let txn = &self.txns[t];
        if txn.reads.iter().any(|&(row, v)| self.state[row] != v) {
            return false;
        }
        self.snapshots[t] = Some(self.state.clone());
        let done = if self.serial {
            self.commit(t)
        } else {
            self.order.push((t, false));
            let done = self.run();
            if !done {
                self.order.pop();
            }
            done
        };
        if !done {
            self.snapshots[t] = None;
        }
        done
    }

    /// Commits `t` if its writes replace what the state holds and what it started on (first
    /// committer wins), and goes on.
    fn commit(&mut self, t: usize) -> bool {
        let txn = &self.txns[t];
        let snapshot = self.snapshots[t].as_ref().expect("started");
        let fits =
            (txn.replaces.iter()).all(|&(row, v)| self.state[row] == v && snapshot[row] == v);
        if !fits {
            return false;
        }
        let before = self.state.clone();
        for &(row, v) in &txn.installs {
            self.state[row] = Some(v);
        }
        self.committed[t] = true;
        self.order.push((t, true));
        if self.run() {
            return true;
        }
        self.order.pop();
        self.committed[t] = false;
        self.state = before;
        false
    }
}

impl CrossCheckReport {
    /// The report as tables for people, then every disagreement.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "DSG oracle cross-checked on {} at {}: {} generated cases from seed {}",
            self.target,
            self.isolation.name(),
            self.cases,
            self.seed
        );
        let judged = self.cases - self.skipped.values().map(|s| s.count).sum::<usize>();
        let _ = writeln!(out, "runs judged: {judged}{}", skipped_text(&self.skipped));
        let _ = writeln!(
            out,
            "{:<12} {:<19} {:>7} {:>6} {:>10} {:>14} {:>9} {:>13} {:>8}",
            "checker",
            "property",
            "checked",
            "agree",
            "both hold",
            "both violated",
            "DSG only",
            "checker only",
            "skipped"
        );
        for t in &self.tallies {
            let _ = writeln!(
                out,
                "{:<12} {:<19} {:>7} {:>6} {:>10} {:>14} {:>9} {:>13} {:>8}",
                t.checker,
                t.property.name(),
                t.checked,
                t.agree(),
                t.both_hold,
                t.both_violated,
                t.dsg_only,
                t.checker_only,
                t.skipped.values().map(|s| s.count).sum::<usize>()
            );
            if !t.skipped.is_empty() {
                let _ = writeln!(out, "  skipped{}", skipped_text(&t.skipped));
            }
        }
        if self.disagreements.is_empty() {
            let _ = writeln!(out, "no disagreement");
        }
        for d in &self.disagreements {
            let verdict = |holds: bool| if holds { "holds" } else { "violated" };
            let _ = writeln!(
                out,
                "\nseed {}: {} {}: DSG says {}, {} says {} ({})",
                d.seed,
                d.checker,
                d.property.name(),
                verdict(d.dsg_holds),
                d.checker,
                verdict(d.checker_holds),
                d.checker_says
            );
            for line in &d.dsg {
                let _ = writeln!(out, "  DSG: {line}");
            }
        }
        out
    }
}

/// `: N reason (seeds …), …`, or nothing.
fn skipped_text(skipped: &BTreeMap<String, Skipped>) -> String {
    let parts: Vec<String> = (skipped.iter())
        .map(|(reason, s)| {
            let seeds: Vec<String> = s.seeds.iter().map(u64::to_string).collect();
            format!("{} {reason} (seeds {}…)", s.count, seeds.join(", "))
        })
        .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!("; skipped: {}", parts.join("; "))
    }
}

impl fmt::Display for Property {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use txhunt_model::access::{Accesses, Read, Write};
    use txhunt_model::TxnRecord;

    /// A transaction of hand-built reads and writes (rows are numbers, versions steps).
    fn txn(label: &str, reads: &[(usize, Ver)], replaces: &[(usize, Ver)], step: usize) -> Txn {
        Txn {
            label: label.into(),
            consistent: true,
            reads: reads.to_vec(),
            replaces: replaces.to_vec(),
            installs: replaces.iter().map(|&(row, _)| (row, step)).collect(),
        }
    }

    #[test]
    fn a_serializable_history_has_its_serial_order() {
        // t1 reads x, writes y; t2 reads t1's y, writes x over the initial version.
        let t1 = txn("t1", &[(0, None)], &[(1, None)], 1);
        let t2 = txn("t2", &[(1, Some(1))], &[(0, None)], 2);
        let txns = [t2, t1];
        assert_eq!(
            brute_force(&txns, Property::Serializable).as_deref(),
            Some("t1 t2")
        );
        assert!(brute_force(&txns, Property::SnapshotIsolation).is_some());
    }

    #[test]
    fn a_lost_update_is_neither_serializable_nor_snapshot_isolated() {
        // Both read the initial x; t2 replaced t1's version of it.
        let t1 = txn("t1", &[(0, None)], &[(0, None)], 1);
        let t2 = txn("t2", &[(0, None)], &[(0, Some(1))], 2);
        let txns = [t1, t2];
        assert_eq!(brute_force(&txns, Property::Serializable), None);
        assert_eq!(brute_force(&txns, Property::SnapshotIsolation), None);
    }

    #[test]
    fn write_skew_is_snapshot_isolated_but_not_serializable() {
        // Each reads both rows' initial versions and writes one of them.
        let t1 = txn("t1", &[(0, None), (1, None)], &[(0, None)], 1);
        let t2 = txn("t2", &[(0, None), (1, None)], &[(1, None)], 2);
        let txns = [t1, t2];
        assert_eq!(brute_force(&txns, Property::Serializable), None);
        assert_eq!(
            brute_force(&txns, Property::SnapshotIsolation).as_deref(),
            Some("s:t1 s:t2 c:t1 c:t2")
        );
    }

    #[test]
    fn a_recorded_lost_update_with_an_undone_overwrite_is_reduced_and_has_no_order() {
        let text = "\
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);
/* init */ INSERT INTO t VALUES (1, 10);
/* t1 */ BEGIN;
/* t1 */ SELECT * FROM t;
/* t2 */ BEGIN;
/* t2 */ SELECT * FROM t;
/* t1 */ UPDATE t SET v = 11;
/* t1 */ COMMIT;
/* t2 */ SAVEPOINT sp;
/* t2 */ UPDATE t SET v = 12;
/* t2 */ ROLLBACK TO SAVEPOINT sp;
/* t2 */ COMMIT;
";
        let case = txhunt_model::scenario::parse(text, "lost.sql").unwrap();
        let row = RowId {
            table: "t".into(),
            rid: -1,
        };
        let init = Some(Version::Init(1));
        let read = |version| Accesses {
            reads: vec![Read {
                row: row.clone(),
                version,
            }],
            ..Accesses::default()
        };
        let write = |overwrote| Accesses {
            writes: vec![Write {
                row: row.clone(),
                kind: WriteKind::Update,
                overwrote,
                image: Vec::new(),
            }],
            ..Accesses::default()
        };
        let none = Accesses::default;
        let accesses = [
            none(),
            read(init),
            none(),
            read(init),
            write(init),
            none(),
            none(),
            write(Some(Version::Step(4))),
            none(),
            none(),
        ];
        let mut history = crate::export::recorded(accesses.to_vec(), |_| Outcome::Ok);
        history.txns = ["t1", "t2"]
            .map(|label| TxnRecord {
                label: label.into(),
                status: TxnStatus::Committed,
            })
            .into();
        let txns = committed(&case, &history);
        // t2's UPDATE found t1's version (and was undone: it installed nothing).
        assert_eq!(
            txns,
            [
                txn("t1", &[(0, None), (0, None)], &[(0, None)], 4),
                Txn {
                    reads: vec![(0, None), (0, Some(4))],
                    ..txn("t2", &[], &[], 0)
                },
            ]
        );
        assert_eq!(brute_force(&txns, Property::Serializable), None);
        assert_eq!(brute_force(&txns, Property::SnapshotIsolation), None);
        // Without t2's second look the two are serial.
        let alone = [txns[0].clone(), txn("t2", &[(0, None)], &[], 0)];
        assert_eq!(
            brute_force(&alone, Property::Serializable).as_deref(),
            Some("t2 t1")
        );
    }

    #[test]
    fn a_transaction_inconsistent_with_its_own_writes_has_no_order() {
        let mut t1 = txn("t1", &[], &[(0, None)], 1);
        t1.consistent = false;
        assert_eq!(brute_force(&[t1], Property::Serializable), None);
    }

    #[test]
    fn checkers_are_named_on_the_command_line() {
        assert_eq!("brute-force".parse(), Ok(Checker::BruteForce));
        assert_eq!(
            "dbcop=/tmp/dbcop".parse(),
            Ok(Checker::Dbcop("/tmp/dbcop".into()))
        );
        assert!("dbcop".parse::<Checker>().is_err());
        assert!("elle=x".parse::<Checker>().is_err());
    }

    #[test]
    fn snapshot_isolation_allows_write_skew_only() {
        assert!(!Property::SnapshotIsolation.broken_by(Phenomenon::G2Item));
        assert!(!Property::SnapshotIsolation.broken_by(Phenomenon::G2));
        assert!(Property::SnapshotIsolation.broken_by(Phenomenon::GSingle));
        assert!(Property::Serializable.broken_by(Phenomenon::G2));
    }
}
