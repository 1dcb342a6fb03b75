//! `txhunt bench instrument`: the same generated cases run plain and instrumented (recording
//! every statement's row versions, [`txhunt_exec::Executor::instrument`]), wall time for both
//! and their ratio: what a read/write history costs.

use super::{median_run, BenchError};
use serde::Serialize;
use std::fmt::Write;
use txhunt_db::Target;
use txhunt_exec::Executor;
use txhunt_sql::{dialect, generate, GenConfig};

/// The whole run of `txhunt bench instrument`.
#[derive(Debug, Serialize)]
pub struct InstrumentReport {
    /// The target's name.
    pub target: String,
    /// Cases run (each at one of the target's levels, in turn).
    pub cases: usize,
    /// Sum of the cases' median wall times, plain.
    pub plain_ms: f64,
    /// Sum of the cases' median wall times, instrumented.
    pub instrumented_ms: f64,
    /// `instrumented_ms / plain_ms`.
    pub ratio: f64,
    /// Statements whose row versions were recorded.
    pub tracked_statements: usize,
    /// Statements instrumentation could not track (each says why in its history).
    pub untracked_statements: usize,
}

/// Runs `cases` generated cases (from `seed`) on `target`, plain and instrumented, `repeat`
/// times each (the median counts), and reports the totals.
pub fn instrument(
    target: &dyn Target,
    cases: usize,
    seed: u64,
    repeat: usize,
) -> Result<InstrumentReport, BenchError> {
    let profile = target.profile();
    let levels = profile.isolation_levels();
    let dialect = dialect::for_family(profile.family());
    let plain = Executor::default();
    let instrumented = Executor {
        instrument: true,
        ..Executor::default()
    };
    let (mut plain_ms, mut instrumented_ms) = (0.0, 0.0);
    let (mut tracked, mut untracked) = (0, 0);
    for i in 0..cases {
        let level = levels[i % levels.len()];
        let case = generate(seed + i as u64, &GenConfig::default(), dialect, level, None).case;
        // Instrumented first on even cases, plain first on odd ones: neither always warms
        // the server for the other.
        let runs = if i % 2 == 0 {
            [&instrumented, &plain]
        } else {
            [&plain, &instrumented]
        };
        for executor in runs {
            let (ms, history) = median_run(executor, target, &case, level, repeat)?;
            if executor.instrument {
                instrumented_ms += ms;
                for step in &history.steps {
                    match &step.accesses {
                        Some(a) if a.untracked.is_empty() => tracked += 1,
                        _ => untracked += 1,
                    }
                }
            } else {
                plain_ms += ms;
            }
        }
    }
    Ok(InstrumentReport {
        target: target.name(),
        cases,
        ratio: instrumented_ms / plain_ms,
        plain_ms,
        instrumented_ms,
        tracked_statements: tracked,
        untracked_statements: untracked,
    })
}

impl InstrumentReport {
    /// The report for people.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "instrumentation on {}: {} generated cases, plain vs instrumented (median of runs)",
            self.target, self.cases
        );
        let _ = writeln!(
            out,
            "plain {:.1} ms, instrumented {:.1} ms, ratio {:.2}",
            self.plain_ms, self.instrumented_ms, self.ratio
        );
        let _ = writeln!(
            out,
            "statements: {} tracked, {} untracked",
            self.tracked_statements, self.untracked_statements
        );
        out
    }
}
