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
use txhunt_model::adya::Phenomenon;
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

/// The phenomenon of `anomaly` that `guarantee` forbids, if one is: the first of its phenomena
/// the level does not let through, or, for a G-single within one plain read statement, the
/// G-single itself where the level gives each such statement one snapshot.
fn forbidden_phenomenon(anomaly: &Anomaly, guarantee: &Guarantee) -> Option<Phenomenon> {
    if anomaly.within_statement.is_some() && guarantee.statement_snapshot {
        return Some(anomaly.class);
    }
    (anomaly.phenomena().into_iter()).find(|p| guarantee.allowance(*p).is_none())
}

/// The finding of `anomaly`: a bug candidate unless `guarantee` lets every phenomenon it is
/// through.
fn finding(
    anomaly: &Anomaly,
    analysis: &Analysis,
    guarantee: &Guarantee,
    history: &History,
) -> Finding {
    let forbidden = forbidden_phenomenon(anomaly, guarantee);
    let explained = anomaly.explain(&analysis.txns);
    let name = match anomaly.refinement {
        Some(r) => format!("{} ({})", anomaly.class, r.name()),
        None => anomaly.class.to_string(),
    };
    let name = match anomaly.within_statement {
        Some(step) => format!("{name} within one statement (step {})", step + 1),
        None => name,
    };
    let level = history.isolation;
    let summary = match forbidden {
        Some(p) if anomaly.within_statement.is_some() && p == anomaly.class => format!(
            "{name}, which {level} ({}) forbids: each plain read statement reads one snapshot: {}",
            guarantee.level,
            explained.join("; ")
        ),
        Some(p) if p == anomaly.class => format!(
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
        within_statement: anomaly.within_statement,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dsg::{Edge, Kind};
    use txhunt_db::profile::guarantee::{
        INNODB_READ_COMMITTED, INNODB_READ_UNCOMMITTED, INNODB_REPEATABLE_READ, PL_3,
        POSTGRES_READ_COMMITTED,
    };
    use txhunt_model::access::RowId;

    /// A read skew of `t0` over `t1`'s writes, within one statement or across two.
    fn read_skew(within_statement: Option<usize>) -> Anomaly {
        let edge = |from, to, kind, key: i64, step| Edge {
            from,
            to,
            kind,
            row: RowId {
                table: "t".into(),
                rid: key,
            },
            version: None,
            step,
            predicate: None,
        };
        let second = if within_statement.is_some() { 3 } else { 4 };
        Anomaly {
            within_statement,
            ..Anomaly::new(
                Phenomenon::GSingle,
                vec![edge(0, 1, Kind::Rw, 1, 3), edge(1, 0, Kind::Wr, 2, second)],
            )
        }
    }

    #[test]
    fn a_read_skew_within_one_statement_is_forbidden_wherever_statements_read_one_snapshot() {
        let (within, across) = (read_skew(Some(3)), read_skew(None));
        for guarantee in [
            &INNODB_READ_COMMITTED,
            &INNODB_REPEATABLE_READ,
            &POSTGRES_READ_COMMITTED,
        ] {
            assert_eq!(
                forbidden_phenomenon(&across, guarantee),
                None,
                "{guarantee:?}"
            );
            let forbidden = forbidden_phenomenon(&within, guarantee);
            assert_eq!(forbidden, Some(Phenomenon::GSingle), "{guarantee:?}");
        }
        // Dirty reads take no snapshot: nothing to break.
        assert_eq!(
            forbidden_phenomenon(&within, &INNODB_READ_UNCOMMITTED),
            None
        );
        // Serializability forbids it either way.
        assert_eq!(
            forbidden_phenomenon(&across, &PL_3),
            Some(Phenomenon::GSingle)
        );
    }
}
