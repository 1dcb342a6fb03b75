//! `txhunt bench block`: exact block detection versus the papers' timeout; `txhunt bench
//! instrument`: instrumented versus plain execution; `txhunt bench cross-check`: the DSG oracle
//! versus an independent checker; `txhunt bench dsg`: how the DSG oracle's check of synthetic
//! histories grows with their size; `txhunt bench fuzz`: where a campaign's time goes, phase by
//! phase; `txhunt bench protocol`: the protocol versus raw replay ([`txhunt_hunt::bench`]).

use crate::format::Format;
use anyhow::Context;
use clap::{Args, Subcommand};
use std::path::PathBuf;
use std::time::Duration;
use txhunt_db::open_target;
use txhunt_exec::{parse_duration, Executor};
use txhunt_hunt::bench::{
    BenchError, Checker, CrossCheckConfig, GuideConfig, InstrumentReport, PhaseReport,
    ProtocolReport,
};
use txhunt_hunt::{Campaign, Judge};
use txhunt_model::Isolation;
use txhunt_sql::GenConfig;

/// Benchmarks.
#[derive(Subcommand)]
pub enum BenchCommand {
    /// Exact lock-wait detection versus the papers' timeout, on scenarios that block.
    Block(BlockArgs),
    /// Instrumented (read/write histories) versus plain execution of the same generated cases.
    Instrument(RepeatedArgs),
    /// The DSG oracle's verdicts (serializable, snapshot-isolated) on instrumented runs of
    /// generated cases versus an independent checker's.
    CrossCheck(CrossCheckArgs),
    /// How the DSG oracle's check of synthetic histories grows with their size.
    Dsg(DsgArgs),
    /// Where a campaign's time goes: a fixed seed's cases run as `fuzz` runs them, the time of
    /// each phase (setup, execution, probing, each oracle, teardown) in all and per case.
    Fuzz(FuzzBenchArgs),
    /// The protocol versus raw replay of the same cases' statements on one connection.
    Protocol(RepeatedArgs),
    /// Random versus pattern-guided generation: cases and seconds until the DSG oracle first
    /// observes each anomaly class the level allows, median over seeds.
    Guide(GuideArgs),
    /// A recorded stress run versus a plain client loop of the same transactions (committed
    /// transactions per second, ratio), and the time to check the recorded history.
    Stress(StressBenchArgs),
}

/// The seed of `txhunt bench stress` without `--seed`: fixed, because the random workload's
/// ratio depends on the schema its seed generates (0.49 to 0.79 on one binary, measured), so
/// only runs of one seed compare.
const BENCH_STRESS_SEED: u64 = 1;

/// Arguments of `txhunt bench stress`.
#[derive(Args)]
pub struct StressBenchArgs {
    #[command(flatten)]
    shape: crate::stress::StressShape,
    /// Runs each way (alternating; the median is counted).
    #[arg(long, default_value_t = 3, value_parser = crate::flags::at_least_one)]
    repeat: usize,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Arguments of `txhunt bench guide`.
#[derive(Args)]
pub struct GuideArgs {
    /// The target: `sqlite`, `turso`, `mariadb`, `postgres` or a server URL.
    #[arg(long, default_value = "sqlite")]
    target: String,
    /// Where the server binaries are, for `mariadb|postgres`.
    #[arg(long)]
    bin_dir: Option<PathBuf>,
    /// The isolation level, or `all` (each the target supports).
    #[arg(long, default_value = "all")]
    isolation: String,
    /// Seeds run each way.
    #[arg(long, default_value_t = 5, value_parser = crate::flags::at_least_one)]
    seeds: usize,
    /// The first seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The most time one campaign (one level, seed and way) may take.
    #[arg(long, default_value = "60s", value_parser = parse_duration)]
    budget: Duration,
    /// Where the campaigns save their findings.
    #[arg(long, default_value = "txhunt-out")]
    out: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Arguments of `txhunt bench fuzz`.
#[derive(Args)]
pub struct FuzzBenchArgs {
    #[command(flatten)]
    generated: GeneratedArgs,
    /// Isolation level of the cases, or `all` (each case draws one the target supports).
    #[arg(long, default_value = "all")]
    isolation: String,
    /// The oracles that judge every case (as for `fuzz --oracle`).
    #[arg(long, default_value = "explicit,wss,dsg,sdg")]
    oracle: String,
    /// Where findings are saved (they are findings like any campaign's; not reduced here, so
    /// that reduction does not weigh on the phases).
    #[arg(long, default_value = "txhunt-out")]
    out: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Arguments of `txhunt bench dsg`.
#[derive(Args)]
pub struct DsgArgs {
    /// The histories' sizes, in transactions.
    #[arg(long, value_delimiter = ',', default_value = "1000,10000,100000")]
    sizes: Vec<usize>,
    /// Seed of the synthetic histories.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// The generated cases a benchmark runs, and where.
#[derive(Args)]
pub struct GeneratedArgs {
    /// The target: `sqlite`, `turso`, `mariadb`, `postgres` or a server URL.
    #[arg(long, default_value = "sqlite")]
    target: String,
    /// Where the server binaries are, for `mariadb|postgres`.
    #[arg(long)]
    bin_dir: Option<PathBuf>,
    /// Generated cases to run.
    #[arg(long, default_value_t = 100)]
    cases: usize,
    /// Seed of the first case.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

impl GeneratedArgs {
    /// The target, opened.
    fn open(&self) -> anyhow::Result<Box<dyn txhunt_db::Target>> {
        Ok(open_target(&self.target, self.bin_dir.as_deref())?)
    }
}

/// Arguments of `txhunt bench cross-check`.
#[derive(Args)]
pub struct CrossCheckArgs {
    #[command(flatten)]
    generated: GeneratedArgs,
    /// The isolation level the cases run at.
    #[arg(long, default_value = "serializable")]
    isolation: Isolation,
    /// `brute-force` (runs of at most 5 committed transactions) or `dbcop=PATH` (a `dbcop`
    /// binary); repeat to ask several.
    #[arg(long, default_value = "brute-force")]
    checker: Vec<Checker>,
    /// Where to write the histories (txhunt JSON and dbcop) of every disagreement and of every
    /// run dbcop could not judge.
    #[arg(long)]
    keep: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Arguments of `txhunt bench instrument` and `txhunt bench protocol`: generated cases, each
/// run several times each way.
#[derive(Args)]
pub struct RepeatedArgs {
    #[command(flatten)]
    generated: GeneratedArgs,
    /// Runs of each case each way (the median is counted).
    #[arg(long, default_value_t = 3)]
    repeat: usize,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Arguments of `txhunt bench block`.
#[derive(Args)]
pub struct BlockArgs {
    /// The target: `sqlite`, `mariadb`, `postgres` or a server URL.
    #[arg(long, default_value = "sqlite")]
    target: String,
    /// Where the server binaries are, for `mariadb|postgres`.
    #[arg(long)]
    bin_dir: Option<PathBuf>,
    /// The papers' wait before judging a statement blocked.
    #[arg(long, default_value = "2s", value_parser = parse_duration)]
    timeout: Duration,
    /// Runs of each case with each method (the median is reported).
    #[arg(long, default_value_t = 3)]
    repeat: usize,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Runs `txhunt bench …`.
pub fn bench(command: &BenchCommand) -> anyhow::Result<bool> {
    match command {
        BenchCommand::Block(args) => {
            let target = open_target(&args.target, args.bin_dir.as_deref())?;
            let report = txhunt_hunt::bench::block(target.as_ref(), args.timeout, args.repeat)?;
            print(args.format, &report, || report.text())
        }
        BenchCommand::Instrument(args) => {
            repeated(args, txhunt_hunt::bench::instrument, InstrumentReport::text)
        }
        BenchCommand::CrossCheck(args) => {
            if let Some(keep) = &args.keep {
                crate::paths::writable_dir("--keep", keep)?;
            }
            let (target, generated) = (args.generated.open()?, &args.generated);
            crate::levels::isolation_flag(args.isolation.name(), target.as_ref())?;
            let config = CrossCheckConfig {
                cases: generated.cases,
                seed: generated.seed,
                isolation: args.isolation,
                checkers: args.checker.clone(),
                keep: args.keep.clone(),
            };
            let report = txhunt_hunt::bench::cross_check(target.as_ref(), &config)?;
            print(args.format, &report, || report.text())?;
            Ok(report.disagreements.is_empty())
        }
        BenchCommand::Dsg(args) => {
            let report = txhunt_hunt::bench::dsg(&args.sizes, args.seed);
            print(args.format, &report, || report.text())
        }
        BenchCommand::Fuzz(args) => {
            let report = phases(args)?;
            print(args.format, &report, || report.text())
        }
        BenchCommand::Guide(args) => {
            crate::paths::writable_dir("--out", &args.out)?;
            let target = open_target(&args.target, args.bin_dir.as_deref())?;
            let levels = crate::levels::isolation_flag(&args.isolation, target.as_ref())?;
            let config = GuideConfig {
                levels,
                first_seed: args.seed,
                seeds: args.seeds,
                budget: args.budget,
                out: args.out.clone(),
            };
            let reopen = |_: usize| open_target(&args.target, args.bin_dir.as_deref());
            crate::interrupt::make_graceful();
            let report = txhunt_hunt::bench::guide(
                std::sync::Arc::from(target),
                &reopen,
                &config,
                crate::interrupt::stop_flag(),
            )?;
            print(args.format, &report, || report.text())
        }
        BenchCommand::Protocol(args) => {
            repeated(args, txhunt_hunt::bench::protocol, ProtocolReport::text)
        }
        BenchCommand::Stress(args) => {
            let (target, hunts) = args.shape.hunts(Some(BENCH_STRESS_SEED))?;
            for hunt in &hunts {
                let report = txhunt_hunt::bench::stress(target.as_ref(), hunt, args.repeat)?;
                print(args.format, &report, || report.text())?;
            }
            Ok(true)
        }
    }
}

/// Runs `txhunt bench fuzz`: a campaign of the given cases, one worker, findings saved but
/// not reduced.
fn phases(args: &FuzzBenchArgs) -> anyhow::Result<PhaseReport> {
    let generated = &args.generated;
    crate::paths::writable_dir("--out", &args.out)?;
    let target = generated.open()?;
    let levels = crate::levels::isolation_flag(&args.isolation, target.as_ref())?;
    let oracles = txhunt_oracle::by_names(&args.oracle).context("--oracle")?;
    let names = oracles.iter().map(|o| o.id().to_string()).collect();
    let campaign = Campaign {
        seed: generated.seed,
        cases: Some(generated.cases as u64),
        duration: None,
        levels,
        workers: 1,
        out: args.out.clone(),
        generator: GenConfig::default(),
        judge: Judge {
            executor: Executor::default(),
            oracles,
        },
        history: None,
        reduce: None,
        patterns: Vec::new(),
        mixed: false,
        recording: None,
    };
    let reopen = |_: usize| open_target(&generated.target, generated.bin_dir.as_deref());
    crate::interrupt::make_graceful();
    let summary = txhunt_hunt::run(
        &campaign,
        vec![target],
        &reopen,
        crate::interrupt::stop_flag(),
        &|_| {},
    )?;
    Ok(PhaseReport::of(&summary, names))
}

/// Runs a benchmark of generated cases, each run `repeat` times each way, and prints its
/// report.
fn repeated<R: serde::Serialize>(
    args: &RepeatedArgs,
    run: impl Fn(&dyn txhunt_db::Target, usize, u64, usize) -> Result<R, BenchError>,
    text: impl Fn(&R) -> String,
) -> anyhow::Result<bool> {
    let (target, generated) = (args.generated.open()?, &args.generated);
    let report = run(
        target.as_ref(),
        generated.cases,
        generated.seed,
        args.repeat,
    )?;
    print(args.format, &report, || text(&report))
}

/// Prints a report in `format`.
fn print<R: serde::Serialize>(
    format: Format,
    report: &R,
    text: impl Fn() -> String,
) -> anyhow::Result<bool> {
    match format {
        Format::Json => println!("{}", serde_json::to_string_pretty(report)?),
        Format::Text => print!("{}", text()),
    }
    Ok(true)
}
