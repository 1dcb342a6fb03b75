//! Replaying scenarios (`txhunt run`): each scenario at each chosen level on every target,
//! judged, its expectations checked. A scenario saved as a finding names the targets and
//! oracles that made it ([`crate::store`]); they are the default.

use crate::judge::{Judge, JudgeError};
use crate::scenarios::Scenario;
use crate::store::{header_list, ORACLES_KEY, TARGETS_KEY};
use serde::Serialize;
use txhunt_db::Target;
use txhunt_exec::Executor;
use txhunt_model::{check, Check, History, Isolation, TestCase};
use txhunt_oracle::{oracle, Detail, Finding, Observed, OracleId, Unjudged, UnknownOracle};

/// Scenarios could not be replayed.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// A target failed.
    #[error(transparent)]
    Judge(#[from] JudgeError),
    /// A scenario's `oracles:` header names an unknown oracle.
    #[error("{file}: header `oracles`: {source}")]
    Oracles {
        /// The scenario.
        file: String,
        /// The unknown name.
        source: UnknownOracle,
    },
    /// The infrastructure failed under an oracle's re-execution of a scenario (a server gone,
    /// a connection cut): the oracles' verdicts are not trusted.
    #[error("{file} on {target}: infrastructure failure under an oracle's re-execution, no verdict: {why}")]
    Infrastructure {
        /// The scenario.
        file: String,
        /// The target's label.
        target: String,
        /// What failed.
        why: String,
    },
    /// The scenarios' `targets:` headers disagree.
    #[error(
        "the scenarios name different targets in their `targets:` headers ({0}); give --target"
    )]
    Targets(String),
}

/// The targets to replay `scenarios` on when no `--target` is given: the ones their `targets:`
/// headers name (they must agree), else `sqlite`.
pub fn default_targets(scenarios: &[Scenario]) -> Result<Vec<String>, ReplayError> {
    let mut named: Vec<Vec<String>> = scenarios
        .iter()
        .filter_map(|(_, case)| header_list(case, TARGETS_KEY))
        .collect();
    named.dedup();
    match named.as_slice() {
        [] => Ok(vec!["sqlite".into()]),
        [one] => Ok(one.clone()),
        several => {
            let lists: Vec<String> = several.iter().map(|l| l.join(", ")).collect();
            Err(ReplayError::Targets(lists.join("; ")))
        }
    }
}

/// One scenario at one level on one target.
#[derive(Debug, Serialize)]
pub struct RunReport<'a> {
    /// The scenario's file.
    pub file: String,
    /// The target (its label when there are several).
    pub target: String,
    /// The level, `None` when the scenario does not apply.
    pub isolation: Option<Isolation>,
    /// Why the scenario does not apply to the target, if it does not.
    pub not_applicable: Option<String>,
    /// Whether every expectation held and no oracle found a bug candidate.
    pub passed: bool,
    /// The expectations, checked.
    pub checks: Vec<Check>,
    /// The single-run oracles' findings.
    pub findings: Vec<Finding>,
    /// The Adya phenomena the DSG oracle observed (allowed or not), as its findings carry
    /// them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub anomalies: Vec<Observed>,
    /// With several targets: the comparison of the first target's run with this one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub differential: Vec<Finding>,
    /// What an oracle could not judge.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unjudged: Vec<Unjudged>,
    /// Whether this run was compared with the first target's.
    #[serde(skip)]
    pub compared: bool,
    /// The oracles that judged this run on its own.
    #[serde(skip)]
    pub oracles: Vec<OracleId>,
    /// What the target did.
    pub history: Option<History>,
    /// The scenario.
    pub case: &'a TestCase,
}

/// Replays every scenario on `targets` at the `forced` levels (default: the levels of its
/// header the first target supports, else its default level), judged by `oracles` (default:
/// those its `oracles:` header names, else none), handing each report to `emit` as it is
/// made; all reports at the end.
pub fn replay<'a>(
    executor: Executor,
    oracles: Option<&[OracleId]>,
    targets: &[&dyn Target],
    scenarios: &'a [Scenario],
    forced: Option<&[Isolation]>,
    emit: &mut dyn FnMut(&RunReport<'a>),
) -> Result<Vec<RunReport<'a>>, ReplayError> {
    let first = targets[0];
    let mut reports = Vec::new();
    for (file, case) in scenarios {
        let ids: Vec<OracleId> = match oracles {
            Some(ids) => ids.to_vec(),
            None => header_list(case, ORACLES_KEY)
                .unwrap_or_default()
                .iter()
                .map(|name| name.parse())
                .collect::<Result<_, _>>()
                .map_err(|source| ReplayError::Oracles {
                    file: file.clone(),
                    source,
                })?,
        };
        let judge = Judge {
            executor,
            oracles: ids.iter().map(|&id| oracle(id)).collect(),
        };
        let single = judge.single_run_oracles();
        let levels = match forced {
            Some(levels) => Ok(levels.to_vec()),
            None => header_levels(case, first),
        };
        let levels = match levels {
            Ok(levels) => levels,
            Err(NotApplicable(reason)) => {
                let report = RunReport {
                    file: file.clone(),
                    target: first.name(),
                    isolation: None,
                    not_applicable: Some(reason),
                    passed: true,
                    checks: Vec::new(),
                    findings: Vec::new(),
                    anomalies: Vec::new(),
                    differential: Vec::new(),
                    unjudged: Vec::new(),
                    compared: false,
                    oracles: single.clone(),
                    history: None,
                    case,
                };
                emit(&report);
                reports.push(report);
                continue;
            }
        };
        for level in levels {
            for run in judge.judge(case, targets, level)? {
                if let Some(why) = run.infrastructure {
                    return Err(ReplayError::Infrastructure {
                        file: file.clone(),
                        target: run.label,
                        why,
                    });
                }
                let checks = check(case, &run.history);
                let passed = checks.iter().all(|c| c.passed) && !run.has_candidate();
                let report = RunReport {
                    file: file.clone(),
                    // Several targets of one kind are told apart by their versions.
                    target: if targets.len() > 1 {
                        run.label
                    } else {
                        first.name()
                    },
                    isolation: Some(run.history.isolation),
                    not_applicable: None,
                    passed,
                    checks,
                    anomalies: observed(&run.findings),
                    findings: run.findings,
                    differential: run.compared,
                    unjudged: run.unjudged,
                    compared: run.is_compared,
                    oracles: single.clone(),
                    history: Some(run.history),
                    case,
                };
                emit(&report);
                reports.push(report);
            }
        }
    }
    Ok(reports)
}

/// Why a scenario does not apply to a target.
struct NotApplicable(String);

/// The levels of a scenario's header that the target supports (its default if none is named);
/// `Err` with the reason when it names only levels the target lacks.
fn header_levels(case: &TestCase, target: &dyn Target) -> Result<Vec<Isolation>, NotApplicable> {
    let profile = target.profile();
    if case.header.isolation.is_empty() {
        return Ok(vec![profile.default_isolation()]);
    }
    let levels: Vec<Isolation> = case
        .header
        .isolation
        .iter()
        .copied()
        .filter(|l| profile.isolation_levels().contains(l))
        .collect();
    if levels.is_empty() {
        let named: Vec<&str> = case.header.isolation.iter().map(|l| l.name()).collect();
        return Err(NotApplicable(format!(
            "written for {}; {} supports {}",
            named.join(", "),
            target.name(),
            profile.isolation_names()
        )));
    }
    Ok(levels)
}

/// The Adya phenomena `findings` carry.
fn observed(findings: &[Finding]) -> Vec<Observed> {
    findings
        .iter()
        .flat_map(|f| &f.details)
        .filter_map(|d| match d {
            Detail::Cycle(observed) => Some(observed.clone()),
            _ => None,
        })
        .collect()
}
