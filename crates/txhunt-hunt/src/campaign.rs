//! The fuzz loop: generate → execute → judge → save, on K workers, until a budget runs out or
//! the caller asks it to stop.

use crate::judge::Judge;
use crate::recording::{Cases, Next, Recording};
use crate::reduce::{reduce, write_beside, Goal};
use crate::retry::{judge_retrying, Shared};
use crate::scenarios::load_file;
use crate::seed::case_seed;
use crate::stats::{Stats, Summary};
use crate::store::{save, Saved};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};
use txhunt_db::{Target, TargetError};
use txhunt_exec::phase;
use txhunt_model::pattern::Pattern;
use txhunt_model::{History, Isolation, TestCase};
use txhunt_oracle::{Finding, OracleId};
use txhunt_sql::{generate, generate_guided, GenConfig};
use txhunt_store::{CaseCounts, NewOccurrence};

/// The phase of generating a case ([`txhunt_exec::phase`]).
pub const GENERATE: &str = "generate";
/// The phase of saving a case's findings (their reduction nested in it as [`REDUCE`]).
pub const SAVE: &str = "save";
/// The phase of reducing a finding.
pub const REDUCE: &str = "reduce";

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
    /// How every case is executed and judged.
    pub judge: Judge,
    /// The format each finding's read/write history is written in beside it (the cases then
    /// run instrumented: [`txhunt_exec::Executor::instrument`]), if any.
    pub history: Option<crate::export::HistoryFormat>,
    /// How bug candidates are reduced ([`crate::reduce`]), or `None` not to reduce them.
    pub reduce: Option<AutoReduce>,
    /// The anomaly patterns that guide generation (APTrans; each case draws one by its seed
    /// and realises it, [`txhunt_sql::generate_guided`]), or none: random cases.
    pub patterns: Vec<Pattern>,
    /// Whether half the cases (chosen by their seeds) are random even with patterns: guided
    /// cases reach anomalies sooner, random ones keep the statements patterns never make
    /// (joins, aggregates, inserts, deletes, upserts, savepoints).
    pub mixed: bool,
    /// The findings store this campaign records into ([`crate::recording`]): its cases then
    /// come from ranges leased there, and every finding and reduction is recorded; `None`:
    /// findings are only saved as files.
    pub recording: Option<Recording>,
}

/// The automatic reduction of a campaign's findings. A reduction runs in the worker that
/// made the finding, right after saving it, and ends at the campaign's end at the latest
/// (with the smallest case found by then); its result is written beside the finding.
#[derive(Debug, Clone, Copy)]
pub struct AutoReduce {
    /// The time budget of each finding's reduction.
    pub budget: Duration,
    /// Permissible findings are reduced too (as permissible findings), not only bug
    /// candidates: to measure the reducer where the DBMS gives few candidates.
    pub permissible: bool,
}

/// A campaign could not go on.
#[derive(Debug, thiserror::Error)]
pub enum HuntError {
    /// The target failed and could not be reopened.
    #[error("the target failed and could not be reopened: {0}")]
    Target(#[from] TargetError),
    /// No target was given.
    #[error("no target to run on")]
    NoTarget,
    /// The findings store failed.
    #[error("{0}")]
    Store(txhunt_store::StoreError),
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
    let targets = targets.into_iter().map(Arc::from).collect();
    run_shared(campaign, targets, reopen, stop, progress)
}

/// [`run`] on targets the caller keeps too (several campaigns on one server).
pub fn run_shared(
    campaign: &Campaign,
    targets: Vec<Arc<dyn Target>>,
    reopen: &(dyn Fn(usize) -> Result<Box<dyn Target>, TargetError> + Sync),
    stop: &AtomicBool,
    progress: &(dyn Fn(&Stats) + Sync),
) -> Result<Summary, HuntError> {
    let first = targets.first().ok_or(HuntError::NoTarget)?;
    let name = first.replay_spec();
    let dialect = txhunt_sql::dialect::for_family(first.profile().family());
    let levels = if campaign.levels.is_empty() {
        common_levels(&targets)
    } else {
        campaign.levels.clone()
    };
    let modes = first.profile().modes();
    let labels: Vec<String> = targets.iter().map(|t| t.label()).collect();
    let names: Vec<String> = targets.iter().map(|t| t.replay_spec()).collect();
    let dbmses: Vec<String> = targets.iter().map(|t| t.name()).collect();
    let versions: Vec<String> = targets.iter().map(|t| t.version()).collect();
    let oracles: Vec<OracleId> = campaign.judge.oracles.iter().map(|o| o.id()).collect();
    let summary_name = if targets.len() > 1 {
        labels.join(" vs ")
    } else {
        name
    };
    let targets: Vec<RwLock<Arc<dyn Target>>> = targets.into_iter().map(RwLock::new).collect();
    let stats = Mutex::new(Stats::default());
    let cases = Cases::new(
        campaign.recording.as_ref(),
        campaign.cases,
        campaign.workers.max(1),
    );
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
    // Saves a finding made on the targets `on` and records it in the store: its path, and
    // its occurrence's id there.
    let save_finding = |out: &PathBuf,
                        (index, seed, level): (u64, u64, Isolation),
                        finding: &Finding,
                        case: &TestCase,
                        (history, baseline): (&History, Option<&History>),
                        on: &[usize]|
     -> Result<(PathBuf, Option<i64>), HuntError> {
        let pick = |all: &[String], separator: &str| -> String {
            let picked: Vec<&str> = on.iter().map(|&k| all[k].as_str()).collect();
            picked.join(separator)
        };
        let targets: Vec<String> = on.iter().map(|&k| names[k].clone()).collect();
        let saved = Saved {
            campaign_seed: campaign.seed,
            index,
            case_seed: seed,
            finding,
            case,
            history,
            baseline,
            targets: &targets,
            oracles: &oracles,
            history_format: campaign.history,
        };
        let dir = if finding.is_candidate() {
            out.clone()
        } else {
            out.join(PERMISSIBLE_DIR)
        };
        let failed = |path: &PathBuf| {
            let path = path.clone();
            move |source| HuntError::Save { path, source }
        };
        let written = save(&dir, &saved).map_err(failed(&dir))?;
        let path = written.path;
        let Some(recording) = &campaign.recording else {
            return Ok((path, None));
        };
        let verdict = match &finding.permissible {
            None => "candidate".to_string(),
            Some(p) => format!("permissible: {}", p.behaviour),
        };
        let signature = finding.signature.to_string();
        let recorded = recording.store.record(&NewOccurrence {
            campaign: recording.campaign.id,
            case_index: index,
            case_seed: seed,
            level: level.name(),
            family: &pick(&dbmses, ", "),
            target: &pick(&names, ", "),
            version: &pick(&versions, " vs "),
            oracle: finding.oracle.name(),
            signature: &signature,
            verdict: &verdict,
            title: &finding.summary,
            statements: case.init.len() + case.steps.len(),
            path: &path.display().to_string(),
            scenario: &written.scenario,
            details: &written.json,
        })?;
        Ok((path, recorded.occurrence))
    };
    // Reduces a saved bug candidate found on the targets `on`, writing the result beside it.
    // (The saved scenario is what is reduced: its header names the finding, targets and
    // oracles, so the reduced one replays as the finding, as `txhunt reduce` would make it.)
    let reduce_finding = |(path, occurrence): &(PathBuf, Option<i64>),
                          finding: &Finding,
                          (level, targets): (Isolation, &Shared),
                          on: &[usize]|
     -> Result<(), HuntError> {
        let Some(auto) = campaign.reduce else {
            return Ok(());
        };
        if !finding.is_candidate() && !auto.permissible {
            return Ok(());
        }
        let budget = auto.budget;
        let budget = deadline.map_or(budget, |d| {
            budget.min(d.saturating_duration_since(Instant::now()))
        });
        let held: Vec<Arc<dyn Target>> = (on.iter())
            .map(|&k| targets[k].read().unwrap_or_else(|p| p.into_inner()).clone())
            .collect();
        let held: Vec<&dyn Target> = held.iter().map(|t| t.as_ref()).collect();
        let goal = Goal {
            oracle: finding.oracle,
            signature: finding.signature.to_string(),
            permissible: !finding.is_candidate(),
        };
        let (_, case) = load_file(path).map_err(|e| HuntError::Save {
            path: path.clone(),
            source: std::io::Error::other(e.to_string()),
        })?;
        let started = Instant::now();
        let reduction = reduce(&case, &campaign.judge, &held, level, &goal, budget, stop);
        let seconds = started.elapsed().as_secs_f64();
        (stats.lock().unwrap_or_else(|p| p.into_inner()).reductions)
            .add(reduction.as_ref().ok(), seconds);
        let Ok(reduction) = reduction else {
            tracing::warn!(
                "{}: the finding did not replay; not reduced",
                path.display()
            );
            return Ok(());
        };
        let reduced = write_beside(path, &reduction).map_err(|source| HuntError::Save {
            path: path.clone(),
            source,
        })?;
        let (Some(recording), Some(occurrence)) = (&campaign.recording, occurrence) else {
            return Ok(());
        };
        let log = serde_json::to_string(&reduction).unwrap_or_default();
        let reduced = reduced.as_deref().map(|sql| (sql, reduction.statements.1));
        recording.store.reduced(*occurrence, reduced, &log)?;
        Ok(())
    };
    // One case: generated, judged, its findings saved and reduced, its counters added (each
    // case's phases timed; what it adds to the store's counters); a case the infrastructure
    // kept from running is not counted.
    let one_case = |index: u64, targets: &Shared| -> Result<CaseCounts, HuntError> {
        let seed = case_seed(campaign.seed, index);
        let level = levels[(seed % levels.len() as u64) as usize];
        let mode = (!modes.is_empty()).then(|| modes[((seed >> 8) % modes.len() as u64) as usize]);
        let (judged, times) = phase::measure(|| -> Result<_, HuntError> {
            let guided = !campaign.patterns.is_empty()
                && (!campaign.mixed || (seed >> 24).is_multiple_of(2));
            let pattern = guided.then(|| {
                &campaign.patterns[((seed >> 16) % campaign.patterns.len() as u64) as usize]
            });
            let generated = phase::time(GENERATE, || match pattern {
                Some(p) => generate_guided(seed, &campaign.generator, dialect, (level, mode), p),
                None => generate(seed, &campaign.generator, dialect, level, mode),
            });
            let infrastructure = |why: String| {
                tracing::warn!("case {index}: infrastructure failure, retried: {why}");
                stats
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .infrastructure(why);
            };
            let judged = judge_retrying(
                &campaign.judge,
                &generated.case,
                level,
                targets,
                reopen,
                &infrastructure,
            )?;
            let Some(runs) = judged else {
                return Ok(None);
            };
            phase::time(SAVE, || -> Result<(), HuntError> {
                for (k, run) in runs.iter().enumerate() {
                    // A phenomenon the level lets through is counted, not saved.
                    for finding in run.findings.iter().filter(|f| !f.is_allowed()) {
                        let path = save_finding(
                            &folders[k],
                            (index, seed, level),
                            finding,
                            &generated.case,
                            (&run.history, None),
                            &[k],
                        )?;
                        phase::time(REDUCE, || {
                            reduce_finding(&path, finding, (level, targets), &[k])
                        })?;
                    }
                    for finding in &run.compared {
                        let all: Vec<usize> = (0..targets.len()).collect();
                        let path = save_finding(
                            &campaign.out,
                            (index, seed, level),
                            finding,
                            &generated.case,
                            (&run.history, Some(&runs[0].history)),
                            &all,
                        )?;
                        phase::time(REDUCE, || {
                            reduce_finding(&path, finding, (level, targets), &all)
                        })?;
                    }
                }
                Ok(())
            })?;
            Ok(Some((generated, runs, pattern)))
        });
        let Some((generated, runs, pattern)) = judged? else {
            return Ok(CaseCounts::default());
        };
        let case = &generated.case;
        let sessions: std::collections::BTreeSet<_> =
            case.steps.iter().map(|s| s.session.as_str()).collect();
        let mut counts = CaseCounts {
            transactions: sessions.len() as u64,
            statements: (case.init.len() + case.steps.len()) as u64,
            ..CaseCounts::default()
        };
        let mut all = stats.lock().unwrap_or_else(|p| p.into_inner());
        all.record(&generated, &runs[0].history);
        if let Some(pattern) = pattern.filter(|_| generated.pattern.is_some()) {
            all.pattern(pattern, &runs[0].history, &runs[0].findings);
        }
        all.timed(&times);
        for run in &runs {
            for finding in run.findings.iter().chain(&run.compared) {
                all.found(&run.history, finding);
                match (finding.is_candidate(), finding.is_allowed()) {
                    (true, _) => counts.candidates += 1,
                    (false, false) => counts.permissible += 1,
                    (false, true) => {}
                }
            }
            for unjudged in &run.unjudged {
                all.unjudged(unjudged);
            }
        }
        progress(&all);
        Ok(counts)
    };
    let cpus = crate::workers::cpus_to_pin(campaign.workers.max(1), &targets);
    let worker = |w: usize| -> Result<(), HuntError> {
        let own = crate::workers::own_targets(w, &cpus, &targets, reopen)?;
        let targets: &Shared = own.as_deref().unwrap_or(&targets);
        loop {
            if stop.load(Ordering::SeqCst) || deadline.is_some_and(|d| Instant::now() >= d) {
                return Ok(());
            }
            let index = match cases.next(w)? {
                Next::Case(index) => index,
                Next::Wait => {
                    std::thread::sleep(Duration::from_millis(200));
                    continue;
                }
                Next::Done => return Ok(()),
            };
            let counts = one_case(index, targets)?;
            cases.finished(w, (index, case_seed(campaign.seed, index)), counts)?;
        }
    };
    let working = AtomicBool::new(true);
    let results: Vec<Result<(), HuntError>> = std::thread::scope(|scope| {
        if let Some(recording) = &campaign.recording {
            scope.spawn(|| heartbeat(recording, &working));
        }
        let handles: Vec<_> = (0..campaign.workers.max(1))
            .map(|w| scope.spawn(move || worker(w)))
            .collect();
        let results = handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect();
        working.store(false, Ordering::SeqCst);
        results
    });
    results.into_iter().collect::<Result<(), HuntError>>()?;
    let stats = stats.into_inner().unwrap_or_else(|p| p.into_inner());
    let summary = Summary::new(
        summary_name,
        campaign.seed,
        campaign.workers.max(1),
        stats,
        started.elapsed().as_secs_f64(),
    );
    if let Some(recording) = &campaign.recording {
        let json = serde_json::to_string(&summary).unwrap_or_default();
        let interrupted = stop.load(Ordering::SeqCst);
        (recording.store).end_run(
            recording.campaign.id,
            &recording.owner,
            (&json, interrupted),
            recording.lease_timeout,
        )?;
    }
    Ok(summary)
}

/// Keeps this process's leases alive while `working`.
fn heartbeat(recording: &Recording, working: &AtomicBool) {
    let mut last = Instant::now();
    while working.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(100));
        if last.elapsed() >= txhunt_store::heartbeat_every(recording.lease_timeout) {
            last = Instant::now();
            if let Err(e) = recording.store.heartbeat(&recording.owner) {
                tracing::warn!("findings store heartbeat: {e}");
            }
        }
    }
}

/// The isolation levels of the first target that every other target offers, or runs at its
/// only level instead ([`txhunt_db::Profile::compared_level`]), in the first target's order.
fn common_levels(targets: &[Arc<dyn Target>]) -> Vec<Isolation> {
    targets[0]
        .profile()
        .isolation_levels()
        .iter()
        .copied()
        .filter(|l| {
            targets.iter().all(|t| {
                let profile = t.profile();
                profile
                    .isolation_levels()
                    .contains(&profile.compared_level(*l))
            })
        })
        .collect()
}
