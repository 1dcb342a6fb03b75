//! `txhunt bench fuzz`: where a campaign's time goes. A fixed seed's cases run as `txhunt fuzz`
//! runs them, every case's phases timed ([`txhunt_exec::phase`]); the report gives each
//! phase's own time in all, per case and as a share of the whole, and its time with the phases
//! nested in it (an oracle's re-executions).

use crate::stats::Summary;
use serde::Serialize;
use std::fmt::Write;

/// The whole run of `txhunt bench fuzz`.
#[derive(Debug, Serialize)]
pub struct PhaseReport {
    /// The target's name.
    pub target: String,
    /// The campaign's seed.
    pub seed: u64,
    /// Cases run.
    pub cases: u64,
    /// Transactions run.
    pub transactions: u64,
    /// Wall time of the campaign.
    pub seconds: f64,
    /// The campaign's throughput.
    pub transactions_per_hour: f64,
    /// The oracles that judged the cases.
    pub oracles: Vec<String>,
    /// Each phase path's own time (without the phases nested in it), longest first.
    pub phases: Vec<PhaseTime>,
}

/// One phase's share of a campaign.
#[derive(Debug, Serialize)]
pub struct PhaseTime {
    /// The phase's path (`execute/probe`: probing inside the concurrent run; `oracle
    /// wss/setup`: the WSS oracle's re-executions' setup).
    pub phase: String,
    /// Its own time, in seconds.
    pub seconds: f64,
    /// Its time with the phases nested in it, in seconds.
    pub with_nested_seconds: f64,
    /// Its own time per case, in ms.
    pub per_case_ms: f64,
    /// Its own time in percent of all phases' time.
    pub percent: f64,
}

impl PhaseReport {
    /// The report of a campaign's `summary`, judged by `oracles`.
    pub fn of(summary: &Summary, oracles: Vec<String>) -> PhaseReport {
        let stats = &summary.stats;
        let all: f64 = stats.phases.values().sum();
        let cases = stats.cases.max(1) as f64;
        let mut phases: Vec<PhaseTime> = (stats.phases.iter())
            .map(|(phase, &seconds)| PhaseTime {
                phase: phase.clone(),
                seconds,
                with_nested_seconds: (stats.phases.iter())
                    .filter(|(path, _)| {
                        path.strip_prefix(phase.as_str())
                            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
                    })
                    .map(|(_, s)| s)
                    .sum(),
                per_case_ms: seconds * 1000.0 / cases,
                percent: if all > 0.0 {
                    seconds * 100.0 / all
                } else {
                    0.0
                },
            })
            .collect();
        phases.sort_by(|a, b| b.seconds.total_cmp(&a.seconds));
        PhaseReport {
            target: summary.target.clone(),
            seed: summary.seed,
            cases: stats.cases,
            transactions: stats.transactions,
            seconds: summary.elapsed_seconds,
            transactions_per_hour: summary.transactions_per_hour,
            oracles,
            phases,
        }
    }

    /// The report for people: one line per phase, longest first.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "phases on {}: {} cases (seed {}), {} transactions in {:.1} s = {:.0} transactions/hour; oracles: {}",
            self.target,
            self.cases,
            self.seed,
            self.transactions,
            self.seconds,
            self.transactions_per_hour,
            self.oracles.join(", ")
        );
        let width = (self.phases.iter().map(|p| p.phase.len()))
            .max()
            .unwrap_or(5)
            .max(5);
        let _ = writeln!(
            out,
            "{:width$}  {:>9}  {:>9}  {:>6}  {:>13}",
            "phase", "seconds", "ms/case", "share", "with nested s"
        );
        for p in &self.phases {
            let _ = writeln!(
                out,
                "{:width$}  {:>9.2}  {:>9.2}  {:>5.1}%  {:>13.2}",
                p.phase, p.seconds, p.per_case_ms, p.percent, p.with_nested_seconds
            );
        }
        out
    }
}
