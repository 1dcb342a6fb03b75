//! Benchmarks, each comparing two ways of doing the same work in one run (a ratio):
//! `txhunt bench block` ([`block()`]: exact block detection versus the papers' timeout) and
//! `txhunt bench instrument` ([`instrument()`]: instrumented versus plain execution);
//! `txhunt bench cross-check` ([`cross_check()`]: the DSG oracle versus an independent checker).
//! `txhunt bench dsg` ([`dsg()`]) times the DSG oracle's check of synthetic histories of growing
//! size, and the ratio of each size's time to the previous one's.
//! `txhunt bench protocol` ([`protocol()`]: the protocol versus raw replay on one connection);
//! `txhunt bench fuzz` ([`PhaseReport`]) shows where a campaign's time goes, phase by phase;
//! `txhunt bench guide` ([`guide()`]: random versus pattern-guided generation, time to the
//! first observation of each anomaly class); `txhunt bench stress` ([`stress()`]: a recorded
//! stress run versus a plain client loop of the same transactions).

mod block;
mod cross_check;
mod dsg;
mod guide;
mod instrument;
mod phases;
mod protocol;
mod stress;

pub use block::{block, BlockReport, CaseResult};
pub use cross_check::{
    cross_check, Checker, CrossCheckConfig, CrossCheckReport, Disagreement, Property, Skipped,
    Tally, BRUTE_FORCE_LIMIT,
};
pub use dsg::{dsg, DsgReport, DsgSize};
pub use guide::{guide, ClassTimes, FirstSeen, GuideConfig, GuideReport};
pub use instrument::{instrument, InstrumentReport};
pub use phases::{PhaseReport, PhaseTime};
pub use protocol::{protocol, ProtocolReport};
pub use stress::{stress, StressBenchReport, Way};

use std::time::Instant;
use txhunt_db::{Target, TargetError};
use txhunt_exec::Executor;
use txhunt_model::scenario::ParseError;
use txhunt_model::{History, Isolation, TestCase};

/// A benchmark could not run.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// A built-in scenario does not parse.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// The target failed.
    #[error(transparent)]
    Target(#[from] TargetError),
    /// A file could not be written.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// The median wall time of `repeat` executions, in ms, and the last history.
fn median_run(
    executor: &Executor,
    target: &dyn Target,
    case: &TestCase,
    level: Isolation,
    repeat: usize,
) -> Result<(f64, History), TargetError> {
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..repeat.max(1) {
        let start = Instant::now();
        let history = executor.execute(target, case, level)?;
        times.push(start.elapsed().as_secs_f64() * 1000.0);
        last = Some(history);
    }
    times.sort_by(f64::total_cmp);
    let history = last.expect("at least one run");
    Ok((times[times.len() / 2], history))
}
