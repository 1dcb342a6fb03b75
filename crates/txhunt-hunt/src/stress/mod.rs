//! Stress hunts: a workload ([`Workload`]) on truly concurrent sessions
//! ([`Executor::stress`]), the whole history judged by the DSG oracle, the workload's
//! invariant ([`txhunt_oracle::invariant`]) and real-time order ([`realtime`]: no stale
//! reads), and each anomaly the level forbids turned back
//! into a deterministic case where possible ([`mod@derive`]).
//!
//! A long hunt runs in rounds ([`Stress::round`]): a round ends when its history is full
//! ([`Stress::max_statements`]) and is judged, saved and dropped before the next one starts on
//! a fresh database, with the next seed, until the hunt's duration is spent; the rounds'
//! reports add up ([`Report::absorb`]). Rounds share nothing, so no anomaly can span two, and
//! what a round found is a stress recipe of its own (its seed, in the candidate).
//!
//! An infrastructure failure during a run (a statement that lost its connection) voids that
//! run's verdicts: the report says so and lists no candidate of it.

pub mod derive;
pub mod known;

use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use txhunt_db::{Target, TargetError};
use txhunt_exec::stress::{Counters, Interval, StressConfig, StressRun, TxnSource};
use txhunt_exec::{Executor, TargetRunner};
use txhunt_model::access::{Predicate, Read, RowId};
use txhunt_model::{ErrorClass, Isolation, Mode, Outcome, Value};
use txhunt_oracle::dsg::{Adya, Transactions};
use txhunt_oracle::invariant::{self, Violation};
use txhunt_oracle::realtime;
use txhunt_oracle::{Finding, Oracle};
use txhunt_sql::gen::workload::{Stream, Workload};

/// A stress hunt's settings.
#[derive(Debug, Clone, Copy)]
pub struct Stress {
    /// The workload.
    pub workload: Workload,
    /// How many sessions run at once.
    pub sessions: usize,
    /// How long transactions are started.
    pub duration: Duration,
    /// The isolation level.
    pub isolation: Isolation,
    /// The concurrency-control mode, where the target has several.
    pub mode: Option<Mode>,
    /// The seed of every session's transactions.
    pub seed: u64,
    /// How many keys the workload's transactions share (the hot key space).
    pub keys: usize,
    /// No transaction of a round starts once its history holds this many statements.
    pub max_statements: u64,
    /// Idle transactions held open beside the sessions ([`StressConfig::idle`]).
    pub idle: usize,
}

/// A workload's transactions for one run.
struct Source(Stream);

impl TxnSource for Source {
    fn txn(&self, session: usize, n: u64) -> Vec<String> {
        self.0.txn(session, n)
    }
}

/// A step of a stress history, as a report shows it.
#[derive(Debug, Clone, Serialize)]
pub struct ExcerptStep {
    /// The step (from 1, as reports number steps).
    pub step: usize,
    /// Its transaction's label (`t3#41`: session t3's 41st transaction).
    pub txn: String,
    /// The statement.
    pub sql: String,
    /// What it returned.
    pub outcome: String,
    /// When it was invoked and completed, in milliseconds from the run's start.
    pub invoked_ms: f64,
    /// When it completed.
    pub completed_ms: f64,
}

/// An anomaly the level forbids, or a broken invariant, found in a stress run.
#[derive(Debug, Clone, Serialize)]
pub struct Candidate {
    /// What found it: `dsg` or `invariant <name>`.
    pub source: String,
    /// One line.
    pub summary: String,
    /// The DSG's finding, with its cycle.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finding: Option<Finding>,
    /// The involved transactions' statements, in invocation order, with their times.
    pub excerpt: Vec<ExcerptStep>,
    /// The round it was found in (from 1) and that round's seed: the stress recipe that
    /// found it is the report's with this seed. The excerpt's times are from the round's
    /// start.
    pub round: u64,
    /// The seed of its round.
    pub seed: u64,
    /// Whether the deterministic case derived from it gives it again ([`mod@derive`]); set by
    /// [`derive::Replay::candidate`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replay: Option<derive::Replayed>,
    /// The known timing bug whose signature it matches ([`known::recognise`]), once checked:
    /// then it is not a new bug candidate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub known: Option<&'static known::KnownBug>,
}

/// What a stress hunt did and found.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The target's label.
    pub target: String,
    /// The workload.
    pub workload: String,
    /// The isolation level.
    pub isolation: Isolation,
    /// Sessions.
    pub sessions: usize,
    /// Keys.
    pub keys: usize,
    /// Idle transactions held open beside the sessions.
    pub idle: usize,
    /// The seed (of the first round; round `n` has seed + n − 1).
    pub seed: u64,
    /// How long the sessions ran transactions, in seconds (all rounds).
    pub seconds: f64,
    /// Rounds run, each on a fresh database: more than one when a round's history filled up
    /// ([`Stress::max_statements`]) before the duration was over.
    pub rounds: u64,
    /// The statements of the largest round's history.
    pub largest_history: u64,
    /// Transactions committed.
    pub committed: u64,
    /// Transactions an error ended.
    pub aborted: u64,
    /// Committed transactions per second.
    pub committed_per_second: f64,
    /// Statements in the history.
    pub statements: u64,
    /// The errors the DBMS answered, by class (`serialization`, `deadlock`, …): the anomalies
    /// it prevented by aborting.
    pub errors: BTreeMap<String, u64>,
    /// How long the DSG oracle and the invariant took over the whole history, in seconds
    /// (all rounds).
    pub check_seconds: f64,
    /// How long they took over the largest round's history.
    pub largest_check_seconds: f64,
    /// The phenomena observed that the level allows (each phenomenon once: the DSG reports a
    /// class by its shortest witness), with the reason.
    pub allowed: BTreeMap<String, String>,
    /// Broken invariants the level allows, by invariant, with how often.
    pub allowed_violations: BTreeMap<String, u64>,
    /// What the oracles could not judge, and why.
    pub unjudged: Vec<String>,
    /// Anomalies the level forbids and broken invariants: the bug candidates.
    pub candidates: Vec<Candidate>,
    /// The infrastructure failure that voids a round's verdicts, if one happened (the hunt
    /// stops there).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infrastructure: Option<String>,
}

impl Stress {
    /// Round `n` (from 0) of this hunt, `spent` into its duration: a run of its own with the
    /// seed `seed + n` for the rest of the duration.
    pub fn round(&self, n: u64, spent: Duration) -> Stress {
        Stress {
            seed: self.seed.wrapping_add(n),
            duration: self.duration.saturating_sub(spent),
            ..*self
        }
    }

    /// The run's configuration for the executor (`record` off: a plain client loop).
    pub fn config(&self, record: bool) -> StressConfig {
        StressConfig {
            sessions: self.sessions,
            isolation: self.isolation,
            mode: self.mode,
            duration: self.duration,
            record,
            max_statements: self.max_statements,
            idle: self.idle,
        }
    }

    /// Runs the workload on `target` (recorded when `record`), counting into `counters`,
    /// until the duration is over or `stop` is set.
    pub fn run(
        &self,
        executor: &Executor,
        target: &dyn Target,
        record: bool,
        counters: &Counters,
        stop: &AtomicBool,
    ) -> Result<StressRun, TargetError> {
        let family = target.profile().family();
        let source = Source(Stream::new(self.workload, family, self.keys, self.seed));
        let setup = source.0.setup();
        let mut run =
            executor.stress(target, &setup, self.config(record), &source, counters, stop)?;
        if self.workload != Workload::Random {
            key_lookups_as_item_reads(&mut run);
        }
        Ok(run)
    }

    /// Judges `run`, a recorded run of this hunt on `target`: the DSG over the whole history
    /// and the workload's invariant.
    pub fn judge(&self, executor: &Executor, target: &dyn Target, run: &StressRun) -> Report {
        let started = Instant::now();
        let runner = TargetRunner {
            executor: *executor,
            target,
        };
        let judged = Adya.check(&run.case, &run.history, &runner);
        let guarantee = target.profile().guarantee(self.isolation);
        let mut violations = invariant::check(self.workload, &run.case, &run.history, guarantee);
        violations.extend(realtime::stale_reads(
            &run.case,
            &run.history,
            &run.intervals,
        ));
        let check_seconds = started.elapsed().as_secs_f64();
        let txns = Transactions::of(&run.case, &run.history);
        let excerpt = |steps: &[usize]| excerpt(run, steps);
        let mut report = Report {
            target: target.label(),
            workload: self.workload.name().into(),
            isolation: self.isolation,
            sessions: self.sessions,
            keys: self.keys,
            idle: self.idle,
            seed: self.seed,
            seconds: run.elapsed.as_secs_f64(),
            rounds: 1,
            largest_history: run.statements,
            committed: run.committed,
            aborted: run.aborted,
            committed_per_second: run.committed as f64 / run.elapsed.as_secs_f64().max(1e-9),
            statements: run.statements,
            errors: errors(run),
            check_seconds,
            largest_check_seconds: check_seconds,
            allowed: BTreeMap::new(),
            allowed_violations: BTreeMap::new(),
            unjudged: (judged.unjudged.iter()).map(|u| u.reason.clone()).collect(),
            candidates: Vec::new(),
            infrastructure: infrastructure(run),
        };
        for finding in judged.findings {
            match &finding.permissible {
                Some(p) => {
                    let class = match &finding.signature {
                        txhunt_oracle::Signature::Dsg(p) => p.to_string(),
                        other => other.to_string(),
                    };
                    report.allowed.insert(class, p.reason.clone());
                }
                None => (report.candidates).push(candidate(run, &txns, finding, self.seed)),
            }
        }
        for violation in violations {
            record_violation(&mut report, violation, &excerpt, self.seed);
        }
        if report.infrastructure.is_some() {
            report.candidates.clear();
        }
        report
    }
}

/// The keyed workloads (not random) never change a key nor delete a row, and a key's row is inserted at most
/// once, so a read by key (`WHERE k = 3`) depends on that key's row alone, ever. Its predicate
/// becomes an item read: of the row it found (already recorded), or, when it found nothing,
/// of the key's row before it was inserted (no version: the inserter anti-depends on the
/// reader, the phantom the predicate would have given); a key never inserted is no row at
/// all. This spares the DSG oracle the predicate search, which weighs every predicate read
/// against every other row of the table with all its versions: quadratic in a stress history.
fn key_lookups_as_item_reads(run: &mut StressRun) {
    let key = |p: &Predicate| -> Option<(String, i64)> {
        let k = p.condition.as_deref()?.strip_prefix("k = ")?.parse().ok()?;
        Some((p.table.clone(), k))
    };
    // Each key's row, from the writes that inserted one (the key is the first column).
    let mut rows: HashMap<(String, i64), RowId> = HashMap::new();
    for step in &run.history.steps {
        for w in step.accesses.iter().flat_map(|a| &a.writes) {
            if let Some(Value::Int(k)) = w.image.first() {
                rows.entry((w.row.table.clone(), *k))
                    .or_insert_with(|| w.row.clone());
            }
        }
    }
    for step in &mut run.history.steps {
        let Some(accesses) = &mut step.accesses else {
            continue;
        };
        let mut unborn = Vec::new();
        accesses.predicates.retain(|p| {
            let Some(k) = key(p) else {
                return true;
            };
            if p.matched.is_empty() {
                unborn.extend(rows.get(&k).map(|row| Read {
                    row: row.clone(),
                    version: None,
                }));
            }
            false
        });
        accesses.reads.extend(unborn);
    }
}

impl Report {
    /// Marks the candidates from the `from`-th on that match a known timing bug of `dbms` (the
    /// target profile's name; [`known::recognise`]): after their replay, whose verdict counts.
    pub fn recognise_known(&mut self, dbms: &str, from: usize) {
        let (workload, level) = (self.workload.as_str(), self.isolation);
        for candidate in self.candidates.iter_mut().skip(from) {
            candidate.known = known::recognise(dbms, workload, level, candidate);
        }
    }

    /// The candidates that match no known bug: the new bug candidates.
    pub fn new_candidates(&self) -> impl Iterator<Item = &Candidate> {
        self.candidates.iter().filter(|c| c.known.is_none())
    }

    /// Adds `next`, the report of the hunt's next round, to this one: counts add up, the
    /// largest round is kept, allowed phenomena and unjudged reasons are merged, and its
    /// candidates are appended (numbered as its round) except those of a kind this report
    /// lists already (the same DSG phenomenon, the same broken invariant).
    pub fn absorb(&mut self, next: Report) {
        self.rounds += 1;
        self.seconds += next.seconds;
        self.committed += next.committed;
        self.aborted += next.aborted;
        self.committed_per_second = self.committed as f64 / self.seconds.max(1e-9);
        self.statements += next.statements;
        if next.largest_history > self.largest_history {
            self.largest_history = next.largest_history;
            self.largest_check_seconds = next.largest_check_seconds;
        }
        self.check_seconds += next.check_seconds;
        for (class, n) in next.errors {
            *self.errors.entry(class).or_default() += n;
        }
        self.allowed.extend(next.allowed);
        for (invariant, n) in next.allowed_violations {
            *self.allowed_violations.entry(invariant).or_default() += n;
        }
        for reason in next.unjudged {
            if !self.unjudged.contains(&reason) {
                self.unjudged.push(reason);
            }
        }
        for mut candidate in next.candidates {
            if !self.candidates.iter().any(|c| c.same_kind(&candidate)) {
                candidate.round = self.rounds;
                self.candidates.push(candidate);
            }
        }
        self.infrastructure = self.infrastructure.take().or(next.infrastructure);
    }
}

impl Candidate {
    /// Whether `other` reports the same kind of anomaly: the same DSG phenomenon, or the same
    /// broken invariant.
    fn same_kind(&self, other: &Candidate) -> bool {
        let signature = |c: &Candidate| c.finding.as_ref().map(|f| f.signature.clone());
        self.source == other.source && signature(self) == signature(other)
    }
}

/// Counts an allowed violation, or lists a forbidden one as a candidate (the first of each
/// invariant only: one broken invariant tends to break again and again); `seed` is the run's.
fn record_violation(
    report: &mut Report,
    violation: Violation,
    excerpt: &dyn Fn(&[usize]) -> Vec<ExcerptStep>,
    seed: u64,
) {
    let source = format!("invariant {}", violation.invariant);
    if violation.allowed.is_some() {
        *(report.allowed_violations)
            .entry(violation.invariant.into())
            .or_default() += 1;
        return;
    }
    if report.candidates.iter().any(|c| c.source == source) {
        return;
    }
    report.candidates.push(Candidate {
        source,
        summary: violation.text.clone(),
        finding: None,
        excerpt: excerpt(&violation.steps),
        round: 1,
        seed,
        replay: None,
        known: None,
    });
}

/// The candidate of a DSG `finding` in `run` (whose transactions are `txns`, whose seed is
/// `seed`): the finding, with the statements of every transaction its cycle names.
pub fn candidate(run: &StressRun, txns: &Transactions, finding: Finding, seed: u64) -> Candidate {
    Candidate {
        source: "dsg".into(),
        summary: finding.summary.clone(),
        excerpt: excerpt(run, &involved(txns, &finding)),
        finding: Some(finding),
        round: 1,
        seed,
        replay: None,
        known: None,
    }
}

/// The steps of every transaction the finding's cycle names.
fn involved(txns: &Transactions, finding: &Finding) -> Vec<usize> {
    let mut labels: Vec<&str> = Vec::new();
    for detail in &finding.details {
        if let txhunt_oracle::Detail::Cycle(observed) = detail {
            for d in &observed.cycle {
                labels.extend([d.from.as_str(), d.to.as_str()]);
            }
        }
    }
    let wanted: Vec<usize> = (txns.labels.iter().enumerate())
        .filter(|(_, l)| labels.contains(&l.as_str()))
        .map(|(t, _)| t)
        .collect();
    let mut steps: Vec<usize> = finding.steps.clone();
    steps.extend(
        (txns.of_step.iter().enumerate())
            .filter(|(s, t)| wanted.contains(t) || wanted.contains(&txns.writer_of[*s]))
            .map(|(s, _)| s),
    );
    steps
}

/// The steps of the transactions of `steps`, in invocation order, as a report shows them.
fn excerpt(run: &StressRun, steps: &[usize]) -> Vec<ExcerptStep> {
    let case_txns = run.case.txns();
    let of = run.case.txn_of_steps(&case_txns);
    let involved: std::collections::BTreeSet<usize> = steps.iter().map(|&s| of[s]).collect();
    let mut all: Vec<usize> = (involved.iter())
        .flat_map(|&t| case_txns[t].steps.iter().copied())
        .collect();
    all.sort_unstable();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    all.into_iter()
        .map(|s| {
            let Interval { invoked, completed } = run.intervals[s];
            ExcerptStep {
                step: s + 1,
                txn: case_txns[of[s]].label.clone(),
                sql: run.case.steps[s].stmt.sql.clone(),
                outcome: run.history.steps[s].outcome.to_string(),
                invoked_ms: ms(invoked),
                completed_ms: ms(completed),
            }
        })
        .collect()
}

/// The errors of a run, by class (not counting the ROLLBACKs sessions send after an error,
/// which fail where the DBMS had ended the transaction already).
fn errors(run: &StressRun) -> BTreeMap<String, u64> {
    let mut counts = BTreeMap::new();
    for (step, sql) in run.history.steps.iter().zip(&run.case.steps) {
        if sql.stmt.kind() == txhunt_model::StmtKind::Rollback {
            continue;
        }
        let name = match &step.outcome {
            Outcome::Error(e) => e.class.name(),
            Outcome::Hang { .. } => "hang",
            _ => continue,
        };
        *counts.entry(name.to_string()).or_default() += 1;
    }
    counts
}

/// The infrastructure failure of a run, if a statement lost its connection or the final
/// state could not be read.
fn infrastructure(run: &StressRun) -> Option<String> {
    let lost = (run.history.steps.iter().enumerate()).find_map(|(s, r)| {
        let e = r.outcome.error()?;
        (e.class == ErrorClass::Connection)
            .then(|| format!("step {} lost its connection: {}", s + 1, e.message))
    });
    lost.or_else(|| {
        (run.history.final_state_error.as_ref())
            .map(|e| format!("the final state could not be read: {e}"))
    })
}

/// The name (without extension) a hunt's report gets under `dir`:
/// `stress-<dbms>-<workload>-<level>-<seed>`, or, when an earlier run's report has that name
/// (the same recipe on other server settings, or run again), the first of `…-run2`, `…-run3`,
/// … that is free: an earlier report is never overwritten.
pub fn report_name(dir: &std::path::Path, dbms: &str, report: &Report) -> String {
    let base = format!(
        "stress-{dbms}-{}-{}-{}",
        report.workload,
        report
            .isolation
            .to_string()
            .replace(' ', "-")
            .to_lowercase(),
        report.seed
    );
    (1..)
        .map(|n| match n {
            1 => base.clone(),
            n => format!("{base}-run{n}"),
        })
        .find(|stem| !dir.join(format!("{stem}.json")).exists())
        .expect("some run number is free")
}

/// Writes `report` under `dir` as `<stem>.json` (the stress recipe — target, workload,
/// sessions, idle transactions, keys, seed — with the verdicts and each candidate's history excerpt), and beside
/// it each candidate's derived case (`<stem>-<k>.sql`) and reduced case
/// (`<stem>-<k>.reduced.sql`) where there is one; returns the report's path. Every file is
/// written whole; a hunt saves its report after every round, under the one name
/// [`report_name`] gave it.
pub fn save(dir: &std::path::Path, stem: &str, report: &Report) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    for (k, candidate) in report.candidates.iter().enumerate() {
        let Some(replay) = &candidate.replay else {
            continue;
        };
        let sql = dir.join(format!("{stem}-{}.sql", k + 1));
        crate::store::write_whole(&sql, replay.scenario.as_bytes())?;
        if let Some(reduced) = &replay.reduced {
            let path = dir.join(format!("{stem}-{}.reduced.sql", k + 1));
            crate::store::write_whole(&path, reduced.as_bytes())?;
        }
    }
    let json = serde_json::to_string_pretty(report).map_err(std::io::Error::other)?;
    let path = dir.join(format!("{stem}.json"));
    crate::store::write_whole(&path, json.as_bytes())?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A round's report with `statements` statements checked in `check` seconds, and a
    /// candidate per broken invariant named in `broken`.
    fn round(seed: u64, statements: u64, check: f64, broken: &[&str]) -> Report {
        Report {
            target: "sqlite".into(),
            workload: "bank".into(),
            isolation: Isolation::Serializable,
            sessions: 8,
            keys: 8,
            idle: 0,
            seed,
            seconds: 2.0,
            rounds: 1,
            largest_history: statements,
            committed: 100,
            aborted: 10,
            committed_per_second: 50.0,
            statements,
            errors: BTreeMap::from([("deadlock".to_string(), 10)]),
            check_seconds: check,
            largest_check_seconds: check,
            allowed: BTreeMap::new(),
            allowed_violations: BTreeMap::new(),
            unjudged: Vec::new(),
            candidates: (broken.iter())
                .map(|name| Candidate {
                    source: format!("invariant {name}"),
                    summary: String::new(),
                    finding: None,
                    excerpt: Vec::new(),
                    round: 1,
                    seed,
                    replay: None,
                    known: None,
                })
                .collect(),
            infrastructure: None,
        }
    }

    #[test]
    fn a_known_timing_bug_is_listed_as_known_and_not_as_a_new_candidate() {
        let mut report = round(11, 1000, 1.0, &["read-partial-transfer", "total-changed"]);
        report.isolation = Isolation::RepeatableRead;
        report.recognise_known("postgres", 0);
        assert_eq!(report.new_candidates().count(), 2);
        report.recognise_known("mariadb", 0);
        let new: Vec<&str> = report.new_candidates().map(|c| c.source.as_str()).collect();
        assert_eq!(new, ["invariant total-changed"]);
        let text = crate::report::stress::summary(&report, std::path::Path::new("r.json"));
        assert!(
            text.contains("1 new bug candidate and 1 known bug:"),
            "{text}"
        );
        assert!(
            text.contains("KNOWN: matches the signature of MARIADB-read-view-not-atomic"),
            "{text}"
        );
        let json = serde_json::to_string(&report.candidates[0]).expect("serializes");
        assert!(
            json.contains(r#""known":{"id":"MARIADB-read-view-not-atomic""#),
            "{json}"
        );
    }

    #[test]
    fn rounds_add_up_and_a_kind_of_candidate_is_listed_once_with_its_round() {
        let mut total = round(7, 1000, 1.0, &["read-partial-transfer"]);
        total.absorb(round(
            8,
            3000,
            2.5,
            &["read-partial-transfer", "total-changed"],
        ));
        total.absorb(round(9, 500, 0.5, &[]));
        assert_eq!(total.rounds, 3);
        assert_eq!(
            (total.statements, total.committed, total.aborted),
            (4500, 300, 30)
        );
        assert_eq!(
            (total.largest_history, total.largest_check_seconds),
            (3000, 2.5)
        );
        assert_eq!(total.check_seconds, 4.0);
        assert_eq!(total.seconds, 6.0);
        assert_eq!(total.committed_per_second, 50.0);
        assert_eq!(total.errors["deadlock"], 30);
        let listed: Vec<(&str, u64, u64)> = (total.candidates.iter())
            .map(|c| (c.source.as_str(), c.round, c.seed))
            .collect();
        assert_eq!(
            listed,
            [
                ("invariant read-partial-transfer", 1, 7),
                ("invariant total-changed", 2, 8)
            ]
        );
    }
}
