//! `txhunt bench guide`: how soon each anomaly class is first observed, random versus
//! pattern-guided generation (APTrans, paper 004 §3.3). For each level and each Adya class the
//! target's profile says the level allows, over several seeds, one campaign of random cases
//! runs until the DSG oracle has observed every allowed class or the budget is spent, and per
//! class one campaign of cases guided by the patterns of that class (every pattern for a class
//! none has: G2's predicate cycles), as a user hunting that anomaly would run `--pattern`,
//! until it observed the class (one worker each, the explicit and DSG oracles). The report
//! gives per class the median number of cases and seconds to its first observation each way,
//! and the ratio of the medians (random over guided: how many times sooner guidance gets
//! there).
//!
//! A seed that never observed a class within the budget counts as later than every seed that
//! did: a median that falls on such a seed is "not within the budget" (`None`).

use crate::campaign::{run_shared, Campaign, HuntError};
use crate::judge::Judge;
use crate::stats::Stats;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use txhunt_db::{Target, TargetError};
use txhunt_exec::Executor;
use txhunt_model::adya::Phenomenon;
use txhunt_model::pattern::{self, Pattern};
use txhunt_model::Isolation;
use txhunt_sql::GenConfig;

/// How `txhunt bench guide` runs.
#[derive(Debug, Clone)]
pub struct GuideConfig {
    /// The levels to measure (each with the classes it allows).
    pub levels: Vec<Isolation>,
    /// The first seed; seeds `first_seed..first_seed + seeds` are run each way.
    pub first_seed: u64,
    /// How many seeds.
    pub seeds: usize,
    /// The most time one campaign (one level, seed and way) may take.
    pub budget: Duration,
    /// Where the campaigns save their findings.
    pub out: PathBuf,
}

/// The whole run of `txhunt bench guide`.
#[derive(Debug, Serialize)]
pub struct GuideReport {
    /// The target's name.
    pub target: String,
    /// Seeds run each way.
    pub seeds: usize,
    /// The budget of each campaign, in seconds.
    pub budget_seconds: f64,
    /// Per level and allowed class, how soon each way first observed it.
    pub classes: Vec<ClassTimes>,
}

/// How soon one class was first observed at one level, each way.
#[derive(Debug, Serialize)]
pub struct ClassTimes {
    /// The level.
    pub level: String,
    /// The Adya class (`G-single`).
    pub class: String,
    /// With random cases.
    pub random: FirstSeen,
    /// With pattern-guided cases.
    pub guided: FirstSeen,
    /// Random's median seconds over guided's, when both observed the class.
    pub ratio: Option<f64>,
}

/// When a class was first observed, over the seeds of one way.
#[derive(Debug, Default, Serialize)]
pub struct FirstSeen {
    /// Seeds whose campaign observed the class within the budget.
    pub observed: usize,
    /// The median number of cases run up to and including the first observation.
    pub median_cases: Option<f64>,
    /// The median seconds to the first observation.
    pub median_seconds: Option<f64>,
}

/// A first observation: the cases run up to and including it, and the seconds passed.
type Seen = (u64, f64);

/// Runs the bench on `target` (`reopen` replaces it after a failure); `stop` ends it early.
pub fn guide(
    target: Arc<dyn Target>,
    reopen: &(dyn Fn(usize) -> Result<Box<dyn Target>, TargetError> + Sync),
    config: &GuideConfig,
    stop: &AtomicBool,
) -> Result<GuideReport, HuntError> {
    let guarantee = |level| target.profile().guarantee(level);
    let mut classes = Vec::new();
    for &level in &config.levels {
        let allowed: Vec<Phenomenon> = (Phenomenon::ALL.into_iter())
            .filter(|&p| guarantee(level).allowance(p).is_some())
            .collect();
        if allowed.is_empty() {
            continue;
        }
        // Per way (random, guided), per class, the seeds' first observations.
        let mut seen: [BTreeMap<Phenomenon, Vec<Option<Seen>>>; 2] = Default::default();
        for seed in (config.first_seed..).take(config.seeds) {
            let random = first_observations(
                &target,
                reopen,
                config,
                (level, seed, Vec::new()),
                &allowed,
                stop,
            )?;
            for &class in &allowed {
                seen[0]
                    .entry(class)
                    .or_default()
                    .push(random.get(&class).copied());
                let guided = first_observations(
                    &target,
                    reopen,
                    config,
                    (level, seed, patterns_of(class)),
                    &[class],
                    stop,
                )?;
                seen[1]
                    .entry(class)
                    .or_default()
                    .push(guided.get(&class).copied());
            }
        }
        for &class in &allowed {
            let [random, guided] = [0, 1].map(|way| first_seen(&seen[way][&class]));
            let ratio = match (random.median_seconds, guided.median_seconds) {
                (Some(r), Some(g)) if g > 0.0 => Some(r / g),
                _ => None,
            };
            classes.push(ClassTimes {
                level: level.name().to_string(),
                class: class.to_string(),
                random,
                guided,
                ratio,
            });
        }
    }
    Ok(GuideReport {
        target: target.name(),
        seeds: config.seeds,
        budget_seconds: config.budget.as_secs_f64(),
        classes,
    })
}

/// The patterns that guide the search for `class`: those whose phenomenon it is, or every
/// pattern where none is (a predicate class: the patterns' reads are item reads).
fn patterns_of(class: Phenomenon) -> Vec<Pattern> {
    let all = pattern::all();
    let of: Vec<Pattern> = (all.iter())
        .filter(|p| p.class == Some(class))
        .cloned()
        .collect();
    if of.is_empty() {
        all
    } else {
        of
    }
}

/// One campaign at `level` from `seed`, guided by `patterns` (none: random cases), until
/// every class of `wanted` was observed or the budget is spent: per class observed, the cases
/// run and seconds passed up to its first observation.
fn first_observations(
    target: &Arc<dyn Target>,
    reopen: &(dyn Fn(usize) -> Result<Box<dyn Target>, TargetError> + Sync),
    config: &GuideConfig,
    (level, seed, patterns): (Isolation, u64, Vec<Pattern>),
    wanted: &[Phenomenon],
    stop: &AtomicBool,
) -> Result<BTreeMap<Phenomenon, Seen>, HuntError> {
    let campaign = Campaign {
        seed,
        cases: None,
        duration: Some(config.budget),
        levels: vec![level],
        workers: 1,
        out: config.out.clone(),
        generator: GenConfig::default(),
        judge: Judge {
            executor: Executor::default(),
            oracles: txhunt_oracle::by_names("explicit,dsg").expect("known oracles"),
        },
        history: None,
        reduce: None,
        patterns,
        mixed: false,
        recording: None,
    };
    let done = AtomicBool::new(false);
    let first: Mutex<BTreeMap<Phenomenon, Seen>> = Mutex::new(BTreeMap::new());
    let started = Instant::now();
    let progress = |stats: &Stats| {
        let mut first = first.lock().unwrap_or_else(|p| p.into_inner());
        let level = stats.levels.get(level.name());
        for &class in wanted {
            let observed = level.and_then(|l| l.anomalies.get(class.name()));
            if observed.is_some_and(|o| o.allowed + o.forbidden > 0) {
                (first.entry(class)).or_insert((stats.cases, started.elapsed().as_secs_f64()));
            }
        }
        if first.len() == wanted.len() || stop.load(Ordering::SeqCst) {
            done.store(true, Ordering::SeqCst);
        }
    };
    run_shared(
        &campaign,
        vec![Arc::clone(target)],
        reopen,
        &done,
        &progress,
    )?;
    Ok(first.into_inner().unwrap_or_else(|p| p.into_inner()))
}

/// The medians of one way's first observations (`None`: not within the budget).
fn first_seen(seeds: &[Option<Seen>]) -> FirstSeen {
    let median = |value: &dyn Fn(&Seen) -> f64| -> Option<f64> {
        let mut values: Vec<Option<f64>> = seeds.iter().map(|s| s.as_ref().map(value)).collect();
        values.sort_by(|a, b| match (a, b) {
            (Some(x), Some(y)) => x.total_cmp(y),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => std::cmp::Ordering::Equal,
        });
        values.get(values.len() / 2).copied().flatten()
    };
    FirstSeen {
        observed: seeds.iter().flatten().count(),
        median_cases: median(&|&(cases, _)| cases as f64),
        median_seconds: median(&|&(_, seconds)| seconds),
    }
}

impl GuideReport {
    /// The report for people.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "time to first observation on {}: random vs pattern-guided cases, median over {} seeds, {:.0} s budget each",
            self.target, self.seeds, self.budget_seconds
        );
        let _ = writeln!(
            out,
            "{:<18} {:<9} {:>16} {:>16} {:>8}",
            "level", "class", "random", "guided", "ratio"
        );
        let show = |f: &FirstSeen| match (f.median_cases, f.median_seconds) {
            (Some(c), Some(s)) => format!("{c:.0} cases {s:.1} s"),
            _ => format!("— ({}/{})", f.observed, self.seeds),
        };
        for c in &self.classes {
            let ratio = c.ratio.map_or("—".to_string(), |r| format!("{r:.1}×"));
            let _ = writeln!(
                out,
                "{:<18} {:<9} {:>16} {:>16} {:>8}",
                c.level,
                c.class,
                show(&c.random),
                show(&c.guided),
                ratio
            );
        }
        out
    }
}
