//! `txhunt stress`: a workload on truly concurrent sessions, the whole history judged.

use crate::flags::{at_least_one, positive_duration};
use crate::format::Format;
use crate::interrupt;
use crate::levels::isolation_flag;
use crate::paths;
use anyhow::Context;
use clap::Args;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};
use txhunt_db::{open_target, Target};
use txhunt_exec::parse_duration;
use txhunt_exec::stress::Counters;
use txhunt_exec::{BlockDetection, Executor};
use txhunt_hunt::report::stress::{progress_line, summary};
use txhunt_hunt::stress::{derive, report_name, save, Report, Stress};
use txhunt_sql::gen::workload::Workload;

/// What a stress run runs, and where: the flags `txhunt stress` and `txhunt bench stress`
/// share.
#[derive(Args)]
#[command(after_help = crate::targets::TARGETS)]
pub struct StressShape {
    /// The target (*Targets* below).
    #[arg(long, default_value = "sqlite")]
    target: String,
    /// Where the server binaries are, for `mariadb|postgres`.
    #[arg(long)]
    bin_dir: Option<PathBuf>,
    /// Sessions running at once, each on its own thread and connection.
    #[arg(long, default_value_t = 8, value_parser = at_least_one)]
    sessions: usize,
    /// How long each run starts transactions (e.g. 60s, 5m).
    #[arg(long, default_value = "60s", value_parser = positive_duration)]
    duration: Duration,
    /// The workloads, one run each (comma list): `register` (reads and blind writes of
    /// unique values), `list-append` (reads of lists and appends of unique elements),
    /// `bank` (transfers; the total stays constant), `random` (the random case generator's
    /// tables and transactions, at most `--keys` rows a table), or `all`.
    #[arg(long, default_value = "register")]
    workload: String,
    /// The isolation levels, one run each per workload: one level, a comma list, or `all`
    /// (default: the target's default level, e.g. PostgreSQL's read-committed).
    #[arg(long)]
    isolation: Option<String>,
    /// How many keys the transactions share (fewer: more conflicts).
    #[arg(long, default_value_t = 8, value_parser = at_least_one)]
    keys: usize,
    /// The seed of the sessions' transactions (default: from the clock for `stress`, so that
    /// each run explores anew; 1 for `bench stress`, so that runs compare alike; in the
    /// report).
    #[arg(long)]
    seed: Option<u64>,
    /// A round's history holds at most this many statements (it is held in memory and
    /// checked whole: about 2.5 KB a statement); a `stress` run then judges and drops it and
    /// goes on with a new round on a fresh database until the duration is over (`bench
    /// stress` stops there).
    #[arg(long, default_value_t = 1_000_000)]
    max_history: u64,
    /// Idle transactions held open beside the sessions through each run, each on a
    /// connection of its own: it read (and, except on SQLite-family targets, inserted into) a
    /// table the workload never touches, and stays open. They lengthen every snapshot's list
    /// of active transactions and hold back the purge of old versions: races in taking a
    /// snapshot, and long version chains, show more often.
    #[arg(long, default_value_t = 0)]
    idle: usize,
}

impl StressShape {
    /// The target, opened, and every (level, workload) run it asks for, levels first; without
    /// `--seed`, the runs take `default_seed`, or a seed from the clock when that is `None`.
    pub fn hunts(
        &self,
        default_seed: Option<u64>,
    ) -> anyhow::Result<(Box<dyn Target>, Vec<Stress>)> {
        let workloads = workloads(&self.workload)?;
        if let Some(flag) = &self.isolation {
            crate::levels::check_before_start(flag, std::slice::from_ref(&self.target))?;
        }
        let target = open_target(&self.target, self.bin_dir.as_deref())?;
        target.check_sessions(self.sessions).context("--sessions")?;
        (target.check_sessions(self.sessions + self.idle)).context("--sessions and --idle")?;
        let levels = match &self.isolation {
            Some(flag) => isolation_flag(flag, target.as_ref())?,
            None => vec![target.profile().default_isolation()],
        };
        let seed = self.seed.or(default_seed).unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64)
        });
        let hunts = (levels.iter())
            .flat_map(|&isolation| {
                workloads.iter().map(move |&workload| Stress {
                    workload,
                    sessions: self.sessions,
                    duration: self.duration,
                    isolation,
                    mode: None,
                    seed,
                    keys: self.keys,
                    max_statements: self.max_history,
                    idle: self.idle,
                })
            })
            .collect();
        Ok((target, hunts))
    }
}

/// Arguments of `txhunt stress`.
#[derive(Args)]
pub struct StressArgs {
    #[command(flatten)]
    shape: StressShape,
    /// Where each run's report (the stress recipe, the verdicts, each candidate's history
    /// excerpt) and the candidates' derived cases are written.
    #[arg(long, default_value = "txhunt-out")]
    out: PathBuf,
    /// Output format of the summary.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// A statement that runs longer than this is a hang (interrupted; its session stops).
    #[arg(long, default_value = "10s", value_parser = positive_duration)]
    statement_timeout: Duration,
    /// Do not replay the candidates' derived cases (by default each is replayed with the
    /// exact protocol and, when it reproduces, reduced).
    #[arg(long)]
    no_reduce: bool,
    /// The time budget of each candidate's replay and reduction.
    #[arg(long, default_value = "60s", value_parser = parse_duration)]
    reduce_budget: Duration,
}

/// The workloads `flag` names.
fn workloads(flag: &str) -> anyhow::Result<Vec<Workload>> {
    if flag == "all" {
        return Ok(Workload::ALL.to_vec());
    }
    (flag.split(','))
        .map(|name| {
            Workload::parse(name.trim()).with_context(|| {
                let known: Vec<&str> = Workload::ALL.iter().map(|w| w.name()).collect();
                format!(
                    "--workload: no workload named `{name}`; known: {}, all",
                    known.join(", ")
                )
            })
        })
        .collect()
}

/// Runs every (level, workload); `Ok(true)` when none gave a new bug candidate (one that
/// matches no known timing bug).
pub fn stress(args: &StressArgs) -> anyhow::Result<bool> {
    paths::writable_dir("--out", &args.out)?;
    let (target, hunts) = args.shape.hunts(None)?;
    let executor = Executor {
        detection: BlockDetection::Exact,
        statement_timeout: args.statement_timeout,
        instrument: true,
    };
    interrupt::make_graceful();
    let stop = interrupt::stop_flag();
    let mut reports: Vec<(Report, PathBuf)> = Vec::new();
    for hunt in hunts {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        reports.push(hunt_in_rounds(
            args,
            &hunt,
            target.as_ref(),
            &executor,
            stop,
        )?);
    }
    if args.format == Format::Json {
        let all: Vec<&Report> = reports.iter().map(|(r, _)| r).collect();
        println!("{}", serde_json::to_string_pretty(&all)?);
    }
    Ok(reports
        .iter()
        .all(|(r, _)| r.new_candidates().next().is_none()))
}

/// Runs `hunt` round after round ([`Stress::round`]) until its duration is spent or `stop`
/// is set, judging (and, unless `--no-reduce`, replaying the candidates of) each round, and
/// saving the report so far after each one: a killed run loses at most its current round.
fn hunt_in_rounds(
    args: &StressArgs,
    hunt: &Stress,
    target: &dyn Target,
    executor: &Executor,
    stop: &std::sync::atomic::AtomicBool,
) -> anyhow::Result<(Report, PathBuf)> {
    let counters = Counters::default();
    let bar = crate::fuzz::progress_bar();
    let title = format!("{} at {}", hunt.workload, hunt.isolation);
    let mut total: Option<Report> = None;
    let mut name: Option<String> = None;
    let mut spent = Duration::ZERO;
    let mut path = PathBuf::new();
    for n in 0.. {
        let round = hunt.round(n, spent);
        let done = std::sync::atomic::AtomicBool::new(false);
        let run = std::thread::scope(|scope| {
            scope.spawn(|| {
                let started = Instant::now();
                while !done.load(Ordering::SeqCst) {
                    if let Some(bar) = &bar {
                        let line = progress_line(&title, &counters, spent + started.elapsed());
                        bar.set_message(format!("{line} · round {}", n + 1));
                    }
                    std::thread::sleep(Duration::from_millis(250));
                }
            });
            let run = round.run(executor, target, true, &counters, stop);
            done.store(true, Ordering::SeqCst);
            run
        })
        .with_context(|| format!("stress run of {title} on {}", target.label()))?;
        spent += run.elapsed;
        if let Some(bar) = &bar {
            bar.set_message(format!(
                "{title}: checking round {}'s {} statements",
                n + 1,
                run.case.steps.len()
            ));
        }
        let report = round.judge(executor, target, &run);
        // The candidates this round adds: those of a kind an earlier round listed are not
        // replayed again.
        let listed = total.as_ref().map_or(0, |t| t.candidates.len());
        match total.as_mut() {
            Some(sum) => sum.absorb(report),
            None => total = Some(report),
        }
        let sum = total.as_mut().expect("set just above");
        if !args.no_reduce {
            let replay = derive::Replay {
                stress: &round,
                executor,
                target,
                budget: args.reduce_budget,
                stop,
            };
            for k in listed..sum.candidates.len() {
                sum.candidates[k].replay = replay.candidate(&run, &sum.candidates[k], false);
            }
        }
        sum.recognise_known(target.profile().name(), listed);
        // Another round only when this one's history filled up before the duration was over
        // (and no infrastructure failure voided it).
        let more = run.limited && spent < hunt.duration;
        drop(run);
        let name = name.get_or_insert_with(|| report_name(&args.out, target.profile().name(), sum));
        path = save(&args.out, name, sum)
            .with_context(|| format!("writing the report under {}", args.out.display()))?;
        if !more || sum.infrastructure.is_some() || stop.load(Ordering::SeqCst) {
            break;
        }
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let report = total.expect("a hunt runs at least one round");
    if args.format == Format::Text {
        print!("{}", summary(&report, &path));
    }
    Ok((report, path))
}
