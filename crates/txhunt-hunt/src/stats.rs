//! What a campaign counts, and its JSON summary.

use serde::Serialize;
use std::collections::BTreeMap;
use txhunt_model::pattern::Pattern;
use txhunt_model::{ErrorClass, History, Outcome, TxnStatus};
use txhunt_oracle::{Finding, Signature, Unjudged};
use txhunt_sql::GeneratedCase;

/// The phase path of the time no phase covers.
pub const OTHER: &str = "other";

/// The phase path that takes off the time phases ran at once (a case's oracles that
/// re-execute: [`txhunt_exec::phase::concurrently`]): a negative time, so that the phases add
/// up to the time they took.
pub const OVERLAPPED: &str = "overlapped (ran at once)";

/// Counters of a campaign.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Stats {
    /// Cases executed.
    pub cases: u64,
    /// Transactions executed.
    pub transactions: u64,
    /// Statements executed (setup and the transactions' statements), per kind.
    pub statements: BTreeMap<&'static str, u64>,
    /// Of [`Stats::statements`], the setup statements (the tables, their indexes and initial
    /// rows, made before the transactions start; they never block), per kind.
    pub setup_statements: BTreeMap<&'static str, u64>,
    /// Statements the DBMS rejected before running them (a syntax error, an unknown table or
    /// column, something unsupported: [`ErrorClass::Syntax`]), per kind: generator bugs.
    pub rejected: BTreeMap<&'static str, u64>,
    /// Of [`Stats::rejected`], the setup statements, per kind.
    pub setup_rejected: BTreeMap<&'static str, u64>,
    /// Statements that blocked (all of them the transactions').
    pub blocked: u64,
    /// Transactions aborted by an error.
    pub aborted: u64,
    /// Bug candidates per oracle.
    pub findings: BTreeMap<String, u64>,
    /// Cases with at least one bug candidate (a case can give several: per oracle, signature
    /// and target).
    pub candidate_cases: u64,
    /// Permissible findings per documented behaviour (e.g. `semi-consistent-read`); Adya
    /// phenomena the level allows are counted in [`LevelStats::anomalies`] instead.
    pub permissible: BTreeMap<String, u64>,
    /// Cases with at least one permissible finding.
    pub permissible_cases: u64,
    /// Runs an oracle could not judge because a derived case could not run, per oracle.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub unjudged: BTreeMap<String, u64>,
    /// Runs outside what an oracle can judge, per oracle and why (`sdg: cyclic`).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub out_of_scope: BTreeMap<String, u64>,
    /// Cases and findings per isolation level.
    pub levels: BTreeMap<String, LevelStats>,
    /// Infrastructure events: a server that died or a connection that was cut under a case or
    /// an oracle's re-execution. The case was run again on a fresh server; never a finding.
    pub infrastructure: u64,
    /// What the last infrastructure event was, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_infrastructure: Option<String>,
    /// What the automatic reduction of bug candidates did.
    #[serde(skip_serializing_if = "Reductions::is_empty")]
    pub reductions: Reductions,
    /// Seconds per phase of the cases' work, each without the phases nested in it, keyed by
    /// path ([`txhunt_exec::phase`]: `execute/probe`, `oracle wss/setup`; `other` is what no
    /// phase covers: generation, judging, bookkeeping; [`OVERLAPPED`], negative, the time
    /// counted twice because phases ran at once).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub phases: BTreeMap<String, f64>,
    /// What the findings of the case counted last have been so far.
    #[serde(skip)]
    last_case: CaseFindings,
}

/// Whether a case has had a bug candidate, a permissible finding.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct CaseFindings {
    candidate: bool,
    permissible: bool,
}

/// What the automatic reduction of a campaign's bug candidates did.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Reductions {
    /// Findings reduced.
    pub reduced: u64,
    /// The median of how many times fewer statements a reduced finding has.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub median_ratio: Option<f64>,
    /// Findings that did not replay every time (not reduced).
    pub flaky: u64,
    /// Findings that did not replay at all.
    pub not_reproduced: u64,
    /// Statements (setup and steps) of each reduced finding, before and after.
    pub statements: Vec<(usize, usize)>,
    /// Seconds spent reducing.
    pub seconds: f64,
}

impl Reductions {
    /// Whether no finding was reduced (or tried).
    pub fn is_empty(&self) -> bool {
        self.reduced + self.flaky + self.not_reproduced == 0
    }

    /// Counts one reduction: `None` when the finding did not replay at all.
    pub fn add(&mut self, reduction: Option<&crate::reduce::Reduction>, seconds: f64) {
        self.seconds += seconds;
        match reduction {
            None => self.not_reproduced += 1,
            Some(r) if r.flaky.is_some() => self.flaky += 1,
            Some(r) => {
                self.reduced += 1;
                self.statements.push(r.statements);
                self.median_ratio = crate::reduce::median_ratio(&self.statements);
            }
        }
    }
}

/// What a campaign counts per isolation level.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct LevelStats {
    /// Cases executed at the level.
    pub cases: u64,
    /// Bug candidates found at the level.
    pub candidates: u64,
    /// Cases at the level with at least one bug candidate.
    pub candidate_cases: u64,
    /// Permissible findings at the level, per documented behaviour.
    pub permissible: BTreeMap<String, u64>,
    /// Cases at the level with at least one permissible finding.
    pub permissible_cases: u64,
    /// Adya phenomena the DSG oracle observed at the level, per phenomenon (`G-single`).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub anomalies: BTreeMap<String, Observed>,
    /// Per anomaly pattern that guided cases at the level (`--guide patterns`), what came of
    /// it.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub patterns: BTreeMap<String, Coverage>,
}

/// What came of the cases one anomaly pattern guided.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Coverage {
    /// Cases that realised the pattern's operations on shared rows in its order.
    pub attempted: u64,
    /// Of those, runs in which the DSG oracle observed the pattern's phenomenon (allowed or
    /// not); a pattern with no DSG phenomenon (a snapshot-start one) is never observed so.
    pub observed: u64,
    /// Of those, runs in which the DBMS made a statement wait for a lock or aborted a
    /// transaction: it prevented the pattern's schedule.
    pub prevented: u64,
}

/// How often a phenomenon was observed at one level.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Observed {
    /// Observed where the level lets it through (documented; not a bug).
    pub allowed: u64,
    /// Observed where the level forbids it: bug candidates.
    pub forbidden: u64,
}

impl Stats {
    /// Counts a case `pattern` guided, run as `history`, in which the single-run oracles
    /// found `findings`.
    pub fn pattern(&mut self, pattern: &Pattern, history: &History, findings: &[Finding]) {
        let observed = pattern
            .class
            .is_some_and(|class| (findings.iter()).any(|f| f.signature == Signature::Dsg(class)));
        let prevented = history.steps.iter().any(|s| s.blocked)
            || (history.txns.iter()).any(|t| matches!(t.status, TxnStatus::Aborted { .. }));
        let coverage = (self.level(history).patterns)
            .entry(pattern.name.to_string())
            .or_default();
        coverage.attempted += 1;
        coverage.observed += u64::from(observed);
        coverage.prevented += u64::from(prevented);
    }

    /// Adds one case's phase times to [`Stats::phases`].
    pub fn timed(&mut self, times: &txhunt_exec::phase::Times) {
        for (path, own) in times.exclusive() {
            let path = if path.is_empty() { OTHER.into() } else { path };
            *self.phases.entry(path).or_default() += own.as_secs_f64();
        }
        let overlapped = times.overlapped();
        if !overlapped.is_zero() {
            *self.phases.entry(OVERLAPPED.into()).or_default() -= overlapped.as_secs_f64();
        }
    }

    /// Counts one executed case; the findings [`Stats::found`] counts next are its own.
    pub fn record(&mut self, generated: &GeneratedCase, history: &History) {
        self.cases += 1;
        self.last_case = CaseFindings::default();
        self.level(history).cases += 1;
        self.transactions += history.txns.len() as u64;
        let init = (generated.init_kinds.iter())
            .zip(&history.init)
            .map(|(kind, outcome)| (kind, outcome, true));
        let steps = (generated.kinds.iter())
            .zip(history.steps.iter().map(|s| &s.outcome))
            .map(|(kind, outcome)| (kind, outcome, false));
        for (kind, outcome, setup) in init.chain(steps) {
            let rejected = match outcome {
                Outcome::Error(e) if e.class == ErrorClass::Syntax => {
                    tracing::debug!("rejected {kind}: {e}");
                    true
                }
                _ => false,
            };
            let counters = [
                (&mut self.statements, true),
                (&mut self.setup_statements, setup),
                (&mut self.rejected, rejected),
                (&mut self.setup_rejected, setup && rejected),
            ];
            for (counter, counts) in counters {
                if counts {
                    *counter.entry(kind).or_default() += 1;
                }
            }
        }
        self.blocked += history.steps.iter().filter(|s| s.blocked).count() as u64;
        self.aborted += history
            .txns
            .iter()
            .filter(|t| matches!(t.status, TxnStatus::Aborted { .. }))
            .count() as u64;
    }

    /// Counts one finding about `history`, of the case [`Stats::record`] counted last: a bug
    /// candidate, permissible, or a phenomenon the level allows.
    pub fn found(&mut self, history: &History, finding: &Finding) {
        if let Signature::Dsg(phenomenon) = finding.signature {
            let observed = self
                .level(history)
                .anomalies
                .entry(phenomenon.to_string())
                .or_default();
            if finding.is_candidate() {
                observed.forbidden += 1;
            } else {
                observed.allowed += 1;
                return;
            }
        }
        match &finding.permissible {
            None => {
                let first = !std::mem::replace(&mut self.last_case.candidate, true);
                *self.findings.entry(finding.oracle.to_string()).or_default() += 1;
                self.candidate_cases += u64::from(first);
                let level = self.level(history);
                level.candidates += 1;
                level.candidate_cases += u64::from(first);
            }
            Some(p) => {
                let first = !std::mem::replace(&mut self.last_case.permissible, true);
                *self.permissible.entry(p.behaviour.clone()).or_default() += 1;
                self.permissible_cases += u64::from(first);
                let level = self.level(history);
                *level.permissible.entry(p.behaviour.clone()).or_default() += 1;
                level.permissible_cases += u64::from(first);
            }
        }
    }

    /// Counts an infrastructure event.
    pub fn infrastructure(&mut self, why: String) {
        self.infrastructure += 1;
        self.last_infrastructure = Some(why);
    }

    /// Counts a run an oracle could not judge.
    pub fn unjudged(&mut self, unjudged: &Unjudged) {
        let oracle = unjudged.oracle.to_string();
        let counter = match &unjudged.scope {
            None => self.unjudged.entry(oracle),
            Some(scope) => self.out_of_scope.entry(format!("{oracle}: {scope}")),
        };
        *counter.or_default() += 1;
    }

    /// The counters of `history`'s isolation level.
    fn level(&mut self, history: &History) -> &mut LevelStats {
        self.levels
            .entry(history.isolation.name().to_string())
            .or_default()
    }

    /// All statements executed.
    pub fn statement_count(&self) -> u64 {
        self.statements.values().sum()
    }

    /// All statements rejected.
    pub fn rejected_count(&self) -> u64 {
        self.rejected.values().sum()
    }

    /// The transactions' statements executed (all but the setup), per kind.
    pub fn transaction_statements(&self) -> BTreeMap<&'static str, u64> {
        without(&self.statements, &self.setup_statements)
    }

    /// The transactions' statements rejected, per kind.
    pub fn transaction_rejected(&self) -> BTreeMap<&'static str, u64> {
        without(&self.rejected, &self.setup_rejected)
    }

    /// Blocked statements in percent of the transactions' statements (setup never blocks).
    pub fn blocked_percent(&self) -> f64 {
        let setup: u64 = self.setup_statements.values().sum();
        Stats::percent(self.blocked, self.statement_count() - setup)
    }

    /// Aborted transactions in percent of all transactions.
    pub fn aborted_percent(&self) -> f64 {
        Stats::percent(self.aborted, self.transactions)
    }

    /// Rejected statements in percent of all statements.
    pub fn rejected_percent(&self) -> f64 {
        Stats::percent(self.rejected_count(), self.statement_count())
    }

    /// `part` of `whole` in percent.
    pub fn percent(part: u64, whole: u64) -> f64 {
        if whole == 0 {
            0.0
        } else {
            100.0 * part as f64 / whole as f64
        }
    }
}

/// The counts of `all` less those of `part`, per kind; kinds left with none are left out.
fn without(
    all: &BTreeMap<&'static str, u64>,
    part: &BTreeMap<&'static str, u64>,
) -> BTreeMap<&'static str, u64> {
    (all.iter())
        .map(|(&kind, &n)| (kind, n - part.get(kind).copied().unwrap_or(0)))
        .filter(|&(_, n)| n > 0)
        .collect()
}

/// The summary `txhunt fuzz --format json` prints.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// The target's name.
    pub target: String,
    /// The campaign's seed.
    pub seed: u64,
    /// Worker threads.
    pub workers: usize,
    /// The counters.
    #[serde(flatten)]
    pub stats: Stats,
    /// Rejected statements in percent of all statements.
    pub rejected_percent: f64,
    /// Blocked statements in percent of the transactions' statements (setup never blocks).
    pub blocked_percent: f64,
    /// Aborted transactions in percent of all transactions.
    pub aborted_percent: f64,
    /// Wall time.
    pub elapsed_seconds: f64,
    /// Throughput.
    pub cases_per_second: f64,
    /// Throughput.
    pub transactions_per_hour: f64,
}

impl Summary {
    /// The summary of `stats` after `elapsed_seconds`.
    pub fn new(
        target: String,
        seed: u64,
        workers: usize,
        stats: Stats,
        elapsed_seconds: f64,
    ) -> Self {
        let per_second = |n: u64| {
            if elapsed_seconds > 0.0 {
                n as f64 / elapsed_seconds
            } else {
                0.0
            }
        };
        Summary {
            target,
            seed,
            workers,
            rejected_percent: stats.rejected_percent(),
            blocked_percent: stats.blocked_percent(),
            aborted_percent: stats.aborted_percent(),
            elapsed_seconds,
            cases_per_second: per_second(stats.cases),
            transactions_per_hour: per_second(stats.transactions) * 3600.0,
            stats,
        }
    }
}
