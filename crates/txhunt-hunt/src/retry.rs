//! Judging a campaign's case so that the infrastructure's failures are never bug candidates.
//!
//! A case whose judging met an infrastructure failure — a target that could not run it (could
//! not be reached, set up or read: [`TargetError::Db`]; any other error ends the campaign), a
//! derived run under an oracle that lost its server ([`Judged::infrastructure`]), or a
//! concurrent run that lost its connection — is run again, once, after the failed targets
//! were reopened (a testbed server is replaced by a fresh one). What the retry gives counts;
//! the failed attempt is one *infrastructure event*, counted and never reported as a finding.
//!
//! The exception is a crash of the DBMS under the concurrent run: when the retry loses its
//! connection at the same statements again, and nothing else failed, the crash is the
//! DBMS's, and the retry's findings (the explicit oracle's crash) are reported.

use crate::campaign::HuntError;
use crate::judge::{Judge, Judged};
use std::sync::{Arc, RwLock};
use txhunt_db::{Target, TargetError};
use txhunt_model::{ErrorClass, Isolation, TestCase};

/// One target of a campaign, replaceable after a failure.
pub type Slot = RwLock<Arc<dyn Target>>;

/// The targets of a campaign, each replaceable after a failure.
pub type Shared = [Slot];

/// Judges `case` at `level` on `targets`, retrying once after an infrastructure failure
/// (`event` hears each one). `Ok(None)`: the retry failed too and the case is dropped.
pub fn judge_retrying(
    judge: &Judge,
    case: &TestCase,
    level: Isolation,
    targets: &Shared,
    reopen: &(dyn Fn(usize) -> Result<Box<dyn Target>, TargetError> + Sync),
    event: &dyn Fn(String),
) -> Result<Option<Vec<Judged>>, HuntError> {
    // Why the previous attempt failed (not yet counted), and where its runs lost their
    // connection when that was all that failed.
    let mut failed: Option<String> = None;
    let mut crashed: Option<Vec<Vec<usize>>> = None;
    for _attempt in 0..2 {
        let current: Vec<Arc<dyn Target>> = targets
            .iter()
            .map(|t| Arc::clone(&t.read().unwrap_or_else(|p| p.into_inner())))
            .collect();
        let on: Vec<&dyn Target> = current.iter().map(|t| t.as_ref()).collect();
        let runs = match judge.judge(case, &on, level) {
            Ok(runs) => runs,
            Err(e) if !matches!(e.source, TargetError::Db { .. }) => {
                return Err(HuntError::Target(e.source));
            }
            Err(e) => {
                failed.take().into_iter().for_each(event);
                failed = Some(e.to_string());
                crashed = None;
                replace(&targets[e.index], &current[e.index], &|| reopen(e.index))?;
                continue;
            }
        };
        let suspect: Vec<usize> = (0..runs.len()).filter(|&k| runs[k].is_suspect()).collect();
        let lost: Vec<Vec<usize>> = runs.iter().map(lost_at).collect();
        let infrastructure = runs.iter().find_map(|r| r.infrastructure.clone());
        if infrastructure.is_none() && crashed.as_ref() == Some(&lost) {
            // The DBMS crashed again at the same statements on a fresh server.
            return Ok(Some(runs));
        }
        failed.take().into_iter().for_each(event);
        if suspect.is_empty() {
            return Ok(Some(runs));
        }
        for &k in &suspect {
            replace(&targets[k], &current[k], &|| reopen(k))?;
        }
        failed = Some(
            infrastructure
                .unwrap_or_else(|| format!("the connection was lost at step(s) {}", steps(&lost))),
        );
        let only_lost = runs.iter().all(|r| r.infrastructure.is_none());
        crashed = (only_lost && lost.iter().any(|l| !l.is_empty())).then_some(lost);
    }
    failed.into_iter().for_each(event);
    Ok(None)
}

/// The steps (0-based) at which `run` lost its connection.
fn lost_at(run: &Judged) -> Vec<usize> {
    (0..run.history.steps.len())
        .filter(|&s| {
            (run.history.steps[s].outcome.error())
                .is_some_and(|e| e.class == ErrorClass::Connection)
        })
        .collect()
}

/// `lost` for people: the 1-based steps of every run.
fn steps(lost: &[Vec<usize>]) -> String {
    let all: Vec<String> = lost.iter().flatten().map(|s| (s + 1).to_string()).collect();
    all.join(", ")
}

/// Replaces the shared target by a reopened one, unless another worker already did.
pub fn replace(
    target: &RwLock<Arc<dyn Target>>,
    failed: &Arc<dyn Target>,
    reopen: &dyn Fn() -> Result<Box<dyn Target>, TargetError>,
) -> Result<(), HuntError> {
    let mut current = target.write().unwrap_or_else(|p| p.into_inner());
    if Arc::ptr_eq(&current, failed) {
        *current = Arc::from(reopen()?);
    }
    Ok(())
}
