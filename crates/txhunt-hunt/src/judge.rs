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
            for verdict in self.single_run_verdicts(case, &judged.history, &runner) {
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

    /// The verdicts of the oracles that judge one run on `history`, in the oracles' order.
    /// Those that re-execute derived cases run at once, each on a thread of its own: their
    /// runs wait on round trips and on the server, and their databases are their own.
    fn single_run_verdicts(
        &self,
        case: &TestCase,
        history: &History,
        runner: &Watched,
    ) -> Vec<txhunt_oracle::Judged> {
        let single: Vec<&dyn Oracle> = (self.oracles.iter())
            .filter(|o| !o.compares_targets())
            .map(|o| o.as_ref())
            .collect();
        let check = |oracle: &dyn Oracle| {
            phase::time(&format!("oracle {}", oracle.id()), || {
                oracle.check(case, history, runner)
            })
        };
        let mut verdicts: Vec<Option<txhunt_oracle::Judged>> = (single.iter())
            .map(|&o| (!o.id().re_executes()).then(|| check(o)))
            .collect();
        let jobs = (single.iter().enumerate())
            .filter(|(_, o)| o.id().re_executes())
            .map(|(i, &o)| Box::new(move || (i, check(o))) as Box<dyn FnOnce() -> _ + Send + '_>)
            .collect();
        for (i, verdict) in phase::concurrently(jobs) {
            verdicts[i] = Some(verdict);
        }
        verdicts.into_iter().flatten().collect()
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::{channel, Receiver, Sender};
    use std::sync::Mutex;
    use std::time::Duration;
    use txhunt_db::sqlite::SqliteTarget;
    use txhunt_exec::Runner;

    /// An oracle that meets another at a rendezvous and says, as its one unjudged item,
    /// whether it met it (both running at once) and on which thread it ran.
    struct Meeting {
        id: OracleId,
        arrive: Sender<()>,
        other: Mutex<Receiver<()>>,
    }

    impl Oracle for Meeting {
        fn id(&self) -> OracleId {
            self.id
        }

        fn check(&self, _: &TestCase, _: &History, _: &dyn Runner) -> txhunt_oracle::Judged {
            let _ = self.arrive.send(());
            let other = self.other.lock().expect("not poisoned");
            let met = other.recv_timeout(Duration::from_secs(20)).is_ok();
            txhunt_oracle::Judged {
                findings: Vec::new(),
                unjudged: vec![Unjudged {
                    oracle: self.id,
                    scope: None,
                    reason: format!("met: {met}, thread {:?}", std::thread::current().id()),
                }],
            }
        }
    }

    #[test]
    fn oracles_that_re_execute_run_at_once_and_their_verdicts_keep_the_oracles_order() {
        let (to_sdg, sdg_hears) = channel();
        let (to_wss, wss_hears) = channel();
        let judge = Judge {
            executor: Executor::default(),
            oracles: vec![
                txhunt_oracle::by_names("explicit")
                    .expect("known")
                    .remove(0),
                Box::new(Meeting {
                    id: OracleId::Sdg,
                    arrive: to_wss,
                    other: Mutex::new(sdg_hears),
                }),
                Box::new(Meeting {
                    id: OracleId::Wss,
                    arrive: to_sdg,
                    other: Mutex::new(wss_hears),
                }),
            ],
        };
        let case = txhunt_model::scenario::parse(
            "/* init */ CREATE TABLE t(k INT PRIMARY KEY);\n/* t1 */ SELECT * FROM t;\n",
            "case.sql",
        )
        .expect("parses");
        let target = SqliteTarget::new(None).expect("a temp dir");
        let runs = judge
            .judge(&case, &[&target], Isolation::Serializable)
            .expect("runs");
        let said: Vec<(OracleId, &str)> = (runs[0].unjudged.iter())
            .map(|u| (u.oracle, u.reason.as_str()))
            .collect();
        assert_eq!(said.len(), 2, "{said:?}");
        assert_eq!((said[0].0, said[1].0), (OracleId::Sdg, OracleId::Wss));
        assert!(
            said.iter().all(|(_, r)| r.starts_with("met: true")),
            "{said:?}"
        );
        let thread = |reason: &str| reason.split(", ").nth(1).map(str::to_string);
        assert_ne!(thread(said[0].1), thread(said[1].1), "{said:?}");
    }
}
