//! The fuzz loop: generate → execute → judge → save, on K workers, until a budget runs out or
//! the caller asks it to stop.

use crate::seed::case_seed;
use crate::stats::{Stats, Summary};
use crate::store::{save, Saved};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};
use txhunt_db::{Target, TargetError};
use txhunt_exec::{Executor, TargetRunner};
use txhunt_model::{History, Isolation, TestCase};
use txhunt_oracle::{differential, wss, Finding, Oracle};
use txhunt_sql::{generate, GenConfig};

/// The folder of a campaign's output that holds its permissible findings.
pub const PERMISSIBLE_DIR: &str = "permissible";

/// How a campaign runs.
pub struct Campaign {
    /// The campaign's seed: case `i` gets [`case_seed`]`(seed, i)`.
    pub seed: u64,
    /// Stop after this many cases.
    pub cases: Option<u64>,
    /// Stop after this long (the case running then is finished).
    pub duration: Option<Duration>,
    /// The isolation levels to draw from (each case gets one, chosen by its seed, and a
    /// concurrency-control mode where the target offers several).
    pub levels: Vec<Isolation>,
    /// Parallel workers, each executing in databases of its own.
    pub workers: usize,
    /// Where findings are saved: bug candidates in it, permissible findings in its
    /// `permissible/` folder; with several targets, each target's oracle findings in a folder
    /// named for it (e.g. `postgres-15.20/`) and the differential ones at the top.
    pub out: PathBuf,
    /// The generators' sizes.
    pub generator: GenConfig,
    /// How cases are executed.
    pub executor: Executor,
    /// The oracles that judge every case.
    pub oracles: Vec<Box<dyn Oracle + Send + Sync>>,
}

/// A campaign could not go on.
#[derive(Debug, thiserror::Error)]
pub enum HuntError {
    /// The target failed and could not be reopened.
    #[error("the target failed and could not be reopened: {0}")]
    Target(#[from] TargetError),
    /// The target's dialect is unknown to the generators.
    #[error("no SQL dialect for target {0}")]
    Dialect(String),
    /// No target was given.
    #[error("no target to run on")]
    NoTarget,
    /// A finding could not be saved.
    #[error("saving a finding under {path}: {source}")]
    Save {
        /// The directory.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
}

/// Runs `campaign` on `targets` (one, or several of one SQL family: every case then runs on
/// each, is judged by the oracles on each, and each run after the first is compared with the
/// first by the differential oracle). `reopen(k)` opens target `k` again after it failed (a
/// crashed testbed server is replaced, and the campaign goes on). `stop` ends it after the
/// running cases; `progress` sees the counters after every case.
pub fn run(
    campaign: &Campaign,
    targets: Vec<Box<dyn Target>>,
    reopen: &(dyn Fn(usize) -> Result<Box<dyn Target>, TargetError> + Sync),
    stop: &AtomicBool,
    progress: &(dyn Fn(&Stats) + Sync),
) -> Result<Summary, HuntError> {
    let first = targets.first().ok_or(HuntError::NoTarget)?;
    let name = first.name();
    let dialect = txhunt_sql::dialect::for_target(first.profile().name())
        .ok_or_else(|| HuntError::Dialect(name.clone()))?;
    let levels = if campaign.levels.is_empty() {
        common_levels(&targets)
    } else {
        campaign.levels.clone()
    };
    let modes = first.profile().modes();
    let labels: Vec<String> = targets
        .iter()
        .map(|t| format!("{} {}", t.name(), t.version()))
        .collect();
    let summary_name = if targets.len() > 1 {
        labels.join(" vs ")
    } else {
        name
    };
    let targets: Vec<RwLock<Arc<dyn Target>>> = targets
        .into_iter()
        .map(|t| RwLock::new(Arc::from(t)))
        .collect();
    let stats = Mutex::new(Stats::default());
    let next = AtomicU64::new(0);
    let started = Instant::now();
    let deadline = campaign.duration.map(|d| started + d);
    // With several targets each one's oracle findings go to a folder named for it.
    let folders: Vec<PathBuf> = labels
        .iter()
        .map(|label| {
            let name: String = label
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '.' {
                        c
                    } else {
                        '-'
                    }
                })
                .collect();
            if labels.len() > 1 {
                campaign.out.join(name)
            } else {
                campaign.out.clone()
            }
        })
        .collect();
    let save_finding = |out: &PathBuf,
                        index: u64,
                        seed: u64,
                        finding: &Finding,
                        case: &TestCase,
                        history: &History,
                        baseline: Option<&History>| {
        let saved = Saved {
            campaign_seed: campaign.seed,
            index,
            case_seed: seed,
            finding,
            case,
            history,
            baseline,
        };
        let dir = if finding.is_candidate() {
            out.clone()
        } else {
            out.join(PERMISSIBLE_DIR)
        };
        save(&dir, &saved).map_err(|source| HuntError::Save { path: dir, source })
    };
    let worker = || -> Result<(), HuntError> {
        'cases: loop {
            if stop.load(Ordering::SeqCst) || deadline.is_some_and(|d| Instant::now() >= d) {
                return Ok(());
            }
            let index = next.fetch_add(1, Ordering::SeqCst);
            if campaign.cases.is_some_and(|n| index >= n) {
                return Ok(());
            }
            let seed = case_seed(campaign.seed, index);
            let level = levels[(seed % levels.len() as u64) as usize];
            let mode =
                (!modes.is_empty()).then(|| modes[((seed >> 8) % modes.len() as u64) as usize]);
            let generated = generate(seed, &campaign.generator, dialect, level, mode);
            let current: Vec<Arc<dyn Target>> = targets
                .iter()
                .map(|t| Arc::clone(&t.read().unwrap_or_else(|p| p.into_inner())))
                .collect();
            let mut histories = Vec::new();
            for (k, target) in current.iter().enumerate() {
                match campaign
                    .executor
                    .execute(target.as_ref(), &generated.case, level)
                {
                    Ok(history) => histories.push(history),
                    Err(e) => {
                        tracing::warn!("case {index} on {}: {e}; reopening it", labels[k]);
                        replace(&targets[k], target, &|| reopen(k))?;
                        continue 'cases;
                    }
                }
            }
            // Each target's oracle findings, then the differential ones (with the run each
            // is about).
            let mut verdicts: Vec<Vec<Finding>> = Vec::new();
            let mut differences = Vec::new();
            let mut broken = Vec::new();
            for (k, (target, history)) in current.iter().zip(&histories).enumerate() {
                let runner = TargetRunner {
                    executor: campaign.executor,
                    target: target.as_ref(),
                };
                let mut verdict = Vec::new();
                for oracle in &campaign.oracles {
                    for finding in oracle.check(&generated.case, history, &runner) {
                        save_finding(
                            &folders[k],
                            index,
                            seed,
                            &finding,
                            &generated.case,
                            history,
                            None,
                        )?;
                        if finding.signature == "connection" {
                            broken.push(k);
                        }
                        verdict.push(finding);
                    }
                }
                verdicts.push(verdict);
            }
            let wss_judged = campaign.oracles.iter().any(|o| o.name() == wss::NAME);
            let run = |k: usize| differential::Run {
                label: &labels[k],
                history: &histories[k],
                judged: wss_judged.then_some(verdicts[k].as_slice()),
            };
            for k in 1..histories.len() {
                let mut rerun = || {
                    let first = current[0].as_ref();
                    campaign
                        .executor
                        .execute(first, &generated.case, level)
                        .ok()
                };
                for finding in differential::judge(&generated.case, run(0), run(k), &mut rerun) {
                    save_finding(
                        &campaign.out,
                        index,
                        seed,
                        &finding,
                        &generated.case,
                        &histories[k],
                        Some(&histories[0]),
                    )?;
                    differences.push((&histories[k], finding));
                }
            }
            let mut all = stats.lock().unwrap_or_else(|p| p.into_inner());
            all.record(&generated, &histories[0]);
            let oracle_findings = verdicts
                .iter()
                .zip(&histories)
                .flat_map(|(v, h)| v.iter().map(move |f| (h, f)));
            let differential_findings = differences.iter().map(|(h, f)| (*h, f));
            for (history, finding) in oracle_findings.chain(differential_findings) {
                all.found(history, finding);
            }
            progress(&all);
            drop(all);
            for k in broken {
                replace(&targets[k], &current[k], &|| reopen(k))?;
            }
        }
    };
    let results: Vec<Result<(), HuntError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..campaign.workers.max(1))
            .map(|_| scope.spawn(worker))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    results.into_iter().collect::<Result<(), HuntError>>()?;
    let stats = stats.into_inner().unwrap_or_else(|p| p.into_inner());
    Ok(Summary::new(
        summary_name,
        campaign.seed,
        campaign.workers.max(1),
        stats,
        started.elapsed().as_secs_f64(),
    ))
}

/// The isolation levels every target offers, in the first target's order.
fn common_levels(targets: &[Box<dyn Target>]) -> Vec<Isolation> {
    targets[0]
        .profile()
        .isolation_levels()
        .iter()
        .copied()
        .filter(|l| {
            targets
                .iter()
                .all(|t| t.profile().isolation_levels().contains(l))
        })
        .collect()
}

/// Replaces the shared target by a reopened one, unless another worker already did.
fn replace(
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
