//! The one judging pipeline: a case executed on each target, every oracle on every run, and
//! every run after the first compared with the first target's. `txhunt run`, `txhunt fuzz` and
//! `txhunt corpus run` all judge through it.

use txhunt_db::profile::claim::Claim;
use txhunt_db::profile::semantics::Semantics;
use txhunt_db::{Target, TargetError};
use txhunt_exec::{phase, Executor, TargetRunner, Watched};
use txhunt_model::{History, Isolation, TestCase};
use txhunt_oracle::differential::Differential;
use txhunt_oracle::{Finding, Oracle, OracleId, Run, Unjudged};

/// How cases are executed and judged.
pub struct Judge {
    /// How cases are executed (always instrumented when an oracle needs the read/write
    /// history).
    pub executor: Executor,
    /// The oracles, in the order their findings are listed. With several targets, runs are
    /// compared by the oracles that compare targets among them, or by the differential oracle
    /// when none is.
    pub oracles: Vec<Box<dyn Oracle>>,
}

/// One target's run of a case and what the oracles said about it.
#[derive(Debug, Clone)]
pub struct Judged {
    /// The target's label, e.g. `postgres 15.19`.
    pub label: String,
    /// What the target did.
    pub history: History,
    /// The concurrency-control semantics the target claims.
    pub semantics: &'static Semantics,
    /// What the target documents for the level the case ran at.
    pub claims: &'static [Claim],
    /// The findings of the oracles that judge one run.
    pub findings: Vec<Finding>,
    /// The comparison with the first target's run (empty for the first target).
    pub compared: Vec<Finding>,
    /// Whether this run was compared with the first target's.
    pub is_compared: bool,
    /// What an oracle could not judge (a derived case that could not run).
    pub unjudged: Vec<Unjudged>,
    /// The infrastructure failure (a server gone, a connection cut) under one of the oracles'
    /// derived runs, if one happened: the oracles' verdicts on this run are then dropped
    /// (`findings`, `compared` and `unjudged` are empty), never reported.
    pub infrastructure: Option<String>,
}

impl Judged {
    /// Whether any finding of this run is a bug candidate.
    pub fn has_candidate(&self) -> bool {
        self.findings
            .iter()
            .chain(&self.compared)
            .any(Finding::is_candidate)
    }

    /// The run as an oracle that compares targets sees it.
    fn run<'a>(&'a self, judged_by: &'a [OracleId]) -> Run<'a> {
        Run {
            label: &self.label,
            history: &self.history,
            semantics: self.semantics,
            claims: self.claims,
            judged_by,
            findings: &self.findings,
        }
    }

    /// Whether the run cannot be trusted: the infrastructure failed under it or under an
    /// oracle's derived run, or it lost its connection (a crash of the DBMS, or of the
    /// machinery around it: only a replay can tell).
    pub fn is_suspect(&self) -> bool {
        self.infrastructure.is_some() || txhunt_exec::lost_connection(&self.history).is_some()
    }
}

/// Target `index` failed to execute a case.
#[derive(Debug, thiserror::Error)]
#[error("running on {label}: {source}")]
pub struct JudgeError {
    /// The failed target's position.
    pub index: usize,
    /// Its label.
    pub label: String,
    /// What failed.
    #[source]
    pub source: TargetError,
}

impl Judge {
    /// The ids of the oracles that judge one run.
    pub fn single_run_oracles(&self) -> Vec<OracleId> {
        self.oracles
            .iter()
            .filter(|o| !o.compares_targets())
            .map(|o| o.id())
            .collect()
    }

    /// Executes `case` at `level` on each of `targets` and judges every run; the first target's
    /// run is the baseline the others are compared with. A target that lacks `level` runs at
    /// its only level if it has one ([`txhunt_db::Profile::compared_level`]); each run's
    /// history records the level it ran at.
    pub fn judge(
        &self,
        case: &TestCase,
        targets: &[&dyn Target],
        level: Isolation,
    ) -> Result<Vec<Judged>, JudgeError> {
        self.judge_within(case, targets, level, self.executor.statement_timeout)
    }

    /// [`Judge::judge`] with `statement_timeout` in place of the executor's own: a shorter one
    /// lets a reducer try smaller cases of a hang without waiting out the full timeout each
    /// time.
    pub fn judge_within(
        &self,
        case: &TestCase,
        targets: &[&dyn Target],
        level: Isolation,
        statement_timeout: std::time::Duration,
    ) -> Result<Vec<Judged>, JudgeError> {
        let judged_by = self.single_run_oracles();
        let executor = Executor {
            statement_timeout,
            ..self.executor()
        };
        let mut runs: Vec<Judged> = Vec::new();
        for (index, &target) in targets.iter().enumerate() {
            let label = target.label();
            let level = if index == 0 {
                level
            } else {
                target.profile().compared_level(level)
            };
            let history = executor
                .execute(target, case, level)
                .map_err(|source| JudgeError {
                    index,
                    label: label.clone(),
                    source,
                })?;
            // Derived cases (serial schedules, predicate probes) need no history of their own.
            let plain = TargetRunner {
                executor: Executor {
                    statement_timeout,
                    ..self.executor
                },
                target,
            };
            let runner = Watched::new(&plain);
            let mut judged = Judged {
                label,
                history,
                semantics: target.profile().semantics(),
                claims: target.profile().claims(level),
                findings: Vec::new(),
                compared: Vec::new(),
                is_compared: index > 0,
                unjudged: Vec::new(),
                infrastructure: None,
            };
            for oracle in self.oracles.iter().filter(|o| !o.compares_targets()) {
                let verdict = phase::time(&format!("oracle {}", oracle.id()), || {
                    oracle.check(case, &judged.history, &runner)
                });
                judged.findings.extend(verdict.findings);
                judged.unjudged.extend(verdict.unjudged);
            }
            if let Some(first) = runs.first() {
                let mut rerun = |which: txhunt_oracle::Side| {
                    let history = match which {
                        txhunt_oracle::Side::First => {
                            executor.execute(targets[0], case, first.history.isolation)
                        }
                        txhunt_oracle::Side::Other => executor.execute(target, case, level),
                    };
                    runner.note(history).ok()
                };
                let mut compared = Vec::new();
                let mut unjudged = Vec::new();
                for oracle in self.comparing_oracles() {
                    let verdict = phase::time(&format!("oracle {}", oracle.id()), || {
                        oracle.compare(
                            case,
                            first.run(&judged_by),
                            judged.run(&judged_by),
                            &mut rerun,
                        )
                    });
                    compared.extend(verdict.findings);
                    unjudged.extend(verdict.unjudged);
                }
                judged.compared = compared;
                judged.unjudged.extend(unjudged);
            }
            if let Some(failure) = runner.failure() {
                judged.infrastructure = Some(failure);
                judged.findings.clear();
                judged.compared.clear();
                judged.unjudged.clear();
            }
            runs.push(judged);
        }
        Ok(runs)
    }

    /// How cases are executed: [`Judge::executor`]'s way, instrumented when an oracle needs the
    /// read/write history.
    pub fn executor(&self) -> Executor {
        let needs_history = self.oracles.iter().any(|o| o.id().needs_history());
        Executor {
            instrument: self.executor.instrument || needs_history,
            ..self.executor
        }
    }

    /// The oracles that compare targets: those among [`Judge::oracles`], or the differential
    /// oracle when none is.
    fn comparing_oracles(&self) -> Vec<&dyn Oracle> {
        let listed: Vec<&dyn Oracle> = self
            .oracles
            .iter()
            .filter(|o| o.compares_targets())
            .map(|o| o.as_ref())
            .collect();
        if listed.is_empty() {
            vec![&Differential]
        } else {
            listed
        }
    }
}
