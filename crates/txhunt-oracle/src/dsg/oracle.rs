//! The DSG oracle: every Adya phenomenon of an instrumented run, judged against what the
//! target's profile says the run's isolation level promises ([`Profile::guarantee`]). A
//! phenomenon the level forbids is a bug candidate; one it lets through is a finding excused as
//! [`Excuse::Allowed`], with the manual section that documents it.
//!
//! The oracle needs the run's read/write history: a run that was not instrumented is not
//! judged. (Tables a statement changed without instrumentation are left out of the graph:
//! [`super::analyse`].)
//!
//! [`Profile::guarantee`]: txhunt_db::Profile::guarantee

use super::transactions::savepoint_after_abort;
use super::{analyse, Analysis, Anomaly};
use crate::{
    Dependency, Detail, Excuse, Finding, Judged, Observed, OracleId, Permissible, Signature,
    Unjudged,
};
use txhunt_db::profile::guarantee::Guarantee;
use txhunt_exec::Runner;
use txhunt_model::{History, TestCase};

/// The DSG oracle.
#[derive(Debug, Default, Clone, Copy)]
pub struct Adya;

impl crate::Oracle for Adya {
    fn id(&self) -> OracleId {
        OracleId::Dsg
    }

    fn check(&self, case: &TestCase, history: &History, runner: &dyn Runner) -> Judged {
        if let Some((scope, reason)) = untrusted(case, history, runner) {
            return Judged {
                findings: Vec::new(),
                unjudged: vec![Unjudged {
                    oracle: OracleId::Dsg,
                    scope: Some(scope.into()),
                    reason,
                }],
            };
        }
        let analysis = analyse(case, history, runner);
        let guarantee = runner.profile().guarantee(history.isolation);
        let out_of_time = (!analysis.unknown.is_empty()).then(|| Unjudged {
            oracle: OracleId::Dsg,
            scope: Some("search-budget".into()),
            reason: format!(
                "the cycle search ran out of time in {} group(s) of transactions: their phenomena are unknown",
                analysis.unknown.len()
            ),
        });
        let predicates = (analysis.predicates_skipped.clone()).map(|reason| Unjudged {
            oracle: OracleId::Dsg,
            scope: Some("predicate-budget".into()),
            reason,
        });
        let unjudged = out_of_time.into_iter().chain(predicates).collect();
        Judged {
            findings: (analysis.anomalies.iter())
                .map(|a| finding(a, &analysis, guarantee, history))
                .collect(),
            unjudged,
        }
    }
}

/// Why the run's history cannot be judged, if it cannot: the scope and the reason.
fn untrusted(
    case: &TestCase,
    history: &History,
    runner: &dyn Runner,
) -> Option<(&'static str, String)> {
    if history.tables.is_empty() {
        return Some((
            "not-instrumented",
            "the run was not instrumented: no read/write history".into(),
        ));
    }
    reopened_by_savepoint(case, history, runner).map(|why| ("savepoint-after-abort", why))
}

/// Why the run's transactions are unknown, if a SAVEPOINT after an abort opened a new one
/// ([`savepoint_after_abort`]); shared with the SDG oracle.
pub(crate) fn reopened_by_savepoint(
    case: &TestCase,
    history: &History,
    runner: &dyn Runner,
) -> Option<String> {
    if !runner.profile().savepoint_opens_transaction() {
        return None;
    }
    savepoint_after_abort(case, history).map(|s| {
        format!(
            "step {} (SAVEPOINT) ran after an error aborted its transaction, and on {} it opens a new one: which of the later statements committed the history does not say",
            s + 1,
            runner.profile().name()
        )
    })
}

/// The finding of `anomaly`: a bug candidate unless `guarantee` lets every phenomenon it is
/// through.
fn finding(
    anomaly: &Anomaly,
    analysis: &Analysis,
    guarantee: &Guarantee,
    history: &History,
) -> Finding {
    let phenomena = anomaly.phenomena();
    let forbidden = phenomena
        .iter()
        .find(|p| guarantee.allowance(**p).is_none());
    let explained = anomaly.explain(&analysis.txns);
    let name = match anomaly.refinement {
        Some(r) => format!("{} ({})", anomaly.class, r.name()),
        None => anomaly.class.to_string(),
    };
    let level = history.isolation;
    let summary = match forbidden {
        Some(p) if *p == anomaly.class => format!(
            "{name}, which {level} ({}) forbids: {}",
            guarantee.level,
            explained.join("; ")
        ),
        Some(p) => format!(
            "{name}, also {p}, which {level} ({}) forbids: {}",
            guarantee.level,
            explained.join("; ")
        ),
        None => format!("{name}, allowed at {level} ({})", guarantee.level),
    };
    let mut steps: Vec<usize> = anomaly.edges.iter().map(|e| e.step).collect();
    steps.sort_unstable();
    steps.dedup();
    let cycle = (anomaly.edges.iter().zip(&explained))
        .map(|(e, text)| Dependency {
            from: analysis.txns.labels[e.from].clone(),
            to: analysis.txns.labels[e.to].clone(),
            kind: e.kind.name().to_string(),
            row: e.row.to_string(),
            version: e.version.map(|v| v.to_string()),
            step: e.step,
            predicate: e.predicate.clone(),
            text: text.clone(),
        })
        .collect();
    let mut finding = Finding::new(Signature::Dsg(anomaly.class), summary, steps);
    finding.details.push(Detail::Cycle(Observed {
        class: anomaly.class,
        refinement: anomaly.refinement.map(|r| r.name().to_string()),
        predicate: anomaly.predicate,
        level: guarantee.level.to_string(),
        allowed: forbidden.is_none(),
        cycle,
    }));
    if forbidden.is_none() {
        let allowance = guarantee
            .allowance(anomaly.class)
            .expect("an allowed phenomenon has its allowance");
        finding.permissible = Some(Permissible {
            excuse: Excuse::Allowed,
            behaviour: anomaly.class.to_string(),
            reason: allowance.reason.to_string(),
            source: allowance.source.to_string(),
            evidence: Vec::new(),
            ruled_out: Vec::new(),
        });
    }
    finding
}
