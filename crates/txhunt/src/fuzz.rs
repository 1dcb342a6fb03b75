//! `txhunt fuzz`: generate, execute and judge random cases until a budget runs out or Ctrl-C.

use crate::flags::{at_least_one, positive_duration};
use crate::format::{parse_history_format, Format};
use crate::interrupt;
use crate::levels::isolation_flag;
use crate::paths;
use crate::recording;
use anyhow::Context;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use txhunt_db::{open_target, open_targets};
use txhunt_exec::{parse_duration, BlockDetection, Executor};
use txhunt_hunt::export::HistoryFormat;
use txhunt_hunt::report::campaign::{progress_line, summary as summary_text};
use txhunt_hunt::{AutoReduce, Campaign, Judge, Stats, Summary};
use txhunt_model::pattern::{self, Pattern};
use txhunt_sql::GenConfig;
use txhunt_store::Store;

/// Arguments of `txhunt fuzz`.
#[derive(Args)]
#[command(after_help = crate::targets::TARGETS)]
pub struct FuzzArgs {
    /// The target (*Targets* below). Give it twice or more (one SQL family) to
    /// run every case on each and compare the runs with the differential oracle. Settings
    /// with alternatives (`turso-mvcc?mvcc_gc_threshold=1|-1`) rotate: the budget is shared
    /// by one campaign per combination, each with a seed of its own.
    #[arg(long = "target", default_value = "sqlite")]
    targets: Vec<String>,
    /// Where the server binaries are, for `mariadb|postgres`.
    #[arg(long)]
    bin_dir: Option<PathBuf>,
    /// The campaign's seed (default: from the clock; printed in the summary).
    #[arg(long)]
    seed: Option<u64>,
    /// Run this long (e.g. 60s, 10m).
    #[arg(long, value_parser = parse_duration, conflicts_with = "cases")]
    duration: Option<Duration>,
    /// Run this many cases.
    #[arg(long)]
    cases: Option<u64>,
    /// Isolation level of the cases, or `all` (each case draws one the target supports).
    #[arg(long, default_value = "all")]
    pub(crate) isolation: String,
    /// Parallel workers, each in databases of its own; on a `mariadb`/`postgres` testbed
    /// each starts a server of its own and is pinned with it to one CPU.
    #[arg(long, default_value_t = 1, value_parser = at_least_one)]
    workers: usize,
    /// Where findings are saved (scenario + JSON each): bug candidates in it, permissible
    /// findings in OUT/permissible.
    #[arg(long, default_value = "txhunt-out")]
    pub(crate) out: PathBuf,
    /// The findings store every campaign, finished case and finding is recorded in: a SQLite
    /// file (default: OUT/findings.db) or a shared PostgreSQL database
    /// (`postgres://user@host/db`), where processes on several machines run one campaign
    /// together (`--campaign NAME`). See `txhunt findings`.
    #[arg(long, value_name = "FILE|URL")]
    pub(crate) store: Option<String>,
    /// Join the campaign of this name in the store, or start it: every process given the same
    /// name (and the same settings) takes its cases from the same leased ranges, so no case
    /// runs twice and none is lost when a process dies (its range is taken over after 30 s).
    #[arg(long, value_name = "NAME", conflicts_with = "resume")]
    pub(crate) campaign: Option<String>,
    /// Continue the newest unfinished campaign in the store made with these targets and
    /// settings (killed, or stopped by Ctrl-C), from its next unfinished case, with its seed
    /// and case budget.
    #[arg(long)]
    pub(crate) resume: bool,
    /// Cases per leased range of the store (a dead process's unfinished range is run again
    /// from its next unfinished case).
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) lease_size: u64,
    /// A leased range whose holder has not heartbeated for this long (a process killed,
    /// stopped or cut off on another machine) is taken over; each process heartbeats six
    /// times as often. Give every process of a campaign the same.
    #[arg(long, default_value = "30s", value_parser = positive_duration)]
    pub(crate) lease_timeout: Duration,
    /// Output format of the summary.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Most tables per case.
    #[arg(long, default_value_t = GenConfig::default().max_tables, value_parser = at_least_one)]
    max_tables: usize,
    /// Most columns per table.
    #[arg(long, default_value_t = GenConfig::default().max_columns, value_parser = at_least_one)]
    max_columns: usize,
    /// Most initial rows per table.
    #[arg(long, default_value_t = GenConfig::default().max_rows)]
    max_rows: usize,
    /// Most transactions per case.
    #[arg(long, default_value_t = GenConfig::default().max_txns, value_parser = at_least_one)]
    max_txns: usize,
    /// Most data statements per transaction.
    #[arg(long, default_value_t = GenConfig::default().max_stmts, value_parser = at_least_one)]
    max_stmts: usize,
    /// Every table gets a primary key and a version column; every write a fresh version.
    #[arg(long)]
    instrumentable: bool,
    /// A statement that neither ends nor waits on a lock for this long is a hang.
    #[arg(long, default_value = "10s", value_parser = positive_duration)]
    pub(crate) statement_timeout: Duration,
    /// The oracles that judge every case: `explicit`, `wss`, `differential`, `dsg`, `sdg`
    /// (comma list; `dsg` and `sdg` run every case instrumented). A WSS finding that a documented behaviour of
    /// the DBMS explains is permissible: counted and saved under OUT/permissible, not a bug
    /// candidate. An Adya phenomenon the level lets through is counted per level, not saved.
    /// Several targets are always compared.
    #[arg(long, default_value = "explicit,wss,dsg,sdg")]
    pub(crate) oracle: String,
    /// Run every case instrumented and write each finding's read/write history beside it in
    /// this format: `json` (txhunt's), `elle`, `plume`, `dbcop`.
    #[arg(long, value_name = "FORMAT", value_parser = parse_history_format)]
    pub(crate) history: Option<HistoryFormat>,
    /// Do not reduce bug candidates (by default each is reduced right after it is saved, as
    /// `txhunt reduce` does, and the result written beside it as `NAME.reduced.sql`).
    #[arg(long)]
    no_reduce: bool,
    /// The time budget of each bug candidate's reduction (ends at the campaign's end at the
    /// latest).
    #[arg(long, default_value = "60s", value_parser = positive_duration)]
    reduce_budget: Duration,
    /// Reduce permissible findings too (to measure the reducer where bug candidates are few).
    #[arg(long, conflicts_with = "no_reduce")]
    reduce_permissible: bool,
    /// How cases are generated: `random`; `patterns`: each case realises one of APTrans's 46
    /// anomaly patterns (its reads and writes on shared rows, in its order), the rest random;
    /// `mixed` (the default): half the cases each way, by seed: guided cases reach every
    /// anomaly class 3–750× sooner (`txhunt bench guide`), random ones keep the statements
    /// patterns never make. With patterns the summary lists per pattern how often it was
    /// attempted, observed by the DSG oracle and prevented by the DBMS.
    #[arg(long, value_enum)]
    pub(crate) guide: Option<Guide>,
    /// Only these anomaly patterns (comma list of names: `dirty-write`, `dirty-read`,
    /// `lost-update`, `non-repeatable-read`, `write-skew`, `read-skew`, `aptrans-1` …
    /// `aptrans-40`); every case realises one of them unless `--guide mixed` is given.
    #[arg(long, value_delimiter = ',')]
    pub(crate) pattern: Vec<String>,
}

/// How `fuzz` generates cases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Guide {
    /// Random cases.
    Random,
    /// Cases guided by anomaly patterns.
    Patterns,
    /// Half the cases guided, half random.
    Mixed,
}

/// The generators' sizes the flags give.
pub(crate) fn generator(args: &FuzzArgs) -> GenConfig {
    GenConfig {
        max_tables: args.max_tables,
        max_columns: args.max_columns,
        max_rows: args.max_rows,
        max_txns: args.max_txns,
        max_stmts: args.max_stmts,
        instrumentable: args.instrumentable,
    }
}

/// The patterns that guide generation: none for random cases, the named ones, or all.
fn patterns(args: &FuzzArgs) -> anyhow::Result<Vec<Pattern>> {
    if !args.pattern.is_empty() {
        return (args.pattern.iter())
            .map(|name| {
                pattern::by_name(name).with_context(|| {
                    let known: Vec<&str> = pattern::all().iter().map(|p| p.name).collect();
                    format!(
                        "--pattern: no pattern named `{name}`; known: {}",
                        known.join(", ")
                    )
                })
            })
            .collect();
    }
    Ok(match guide(args) {
        Guide::Random => Vec::new(),
        Guide::Patterns | Guide::Mixed => pattern::all(),
    })
}

/// How cases are generated: `--guide`, else `patterns` when `--pattern` names some, else
/// `mixed`.
pub(crate) fn guide(args: &FuzzArgs) -> Guide {
    match (args.guide, args.pattern.is_empty()) {
        (Some(guide), _) => guide,
        (None, false) => Guide::Patterns,
        (None, true) => Guide::Mixed,
    }
}

/// Runs the campaign, or one per combination of rotated settings ([`rotations`]), in turn;
/// `Ok(true)` when none found a bug candidate.
pub fn fuzz(args: &FuzzArgs) -> anyhow::Result<bool> {
    anyhow::ensure!(
        args.cases.is_some() || args.duration.is_some() || args.resume,
        "fuzz: give a budget: --duration D (e.g. 60s) or --cases N"
    );
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let rotations = rotations(&args.targets);
    let n = rotations.len() as u64;
    paths::writable_dir("--out", &args.out)?;
    let store = recording::store_spec(args);
    if !store.contains("://") {
        paths::writable_file("--store", std::path::Path::new(&store))?;
    }
    let store = Arc::new(Store::open(&store).context("--store")?);
    let mut summaries = Vec::new();
    for (k, specs) in (0..n).zip(&rotations) {
        if n > 1 && args.format == Format::Text {
            println!("== settings {}/{n}: {}", k + 1, specs.join(" vs "));
        }
        let budget = Budget {
            cases: args.cases.map(|c| c.div_ceil(n)),
            duration: args.duration.map(|d| d / n as u32),
        };
        let rotation = (n > 1).then_some(k);
        let summary = campaign(
            args,
            specs,
            (seed.wrapping_add(k), rotation),
            budget,
            &store,
        )?;
        if args.format == Format::Text {
            print!("{}", summary_text(&summary, &args.out));
            println!("findings store: {}", store.location());
        }
        summaries.push(summary);
    }
    if args.format == Format::Json {
        // One summary, or the rotation's list of them.
        let json = match summaries.as_slice() {
            [one] => serde_json::to_string_pretty(one)?,
            all => serde_json::to_string_pretty(all)?,
        };
        println!("{json}");
    }
    Ok(summaries.iter().all(|s| s.stats.findings.is_empty()))
}

/// What one campaign of a rotation may spend.
struct Budget {
    cases: Option<u64>,
    duration: Option<Duration>,
}

/// The target lists `--target` values stand for: one per combination of their settings'
/// alternatives ([`txhunt_db::rotation`]), in order; the values themselves when none has any.
fn rotations(specs: &[String]) -> Vec<Vec<String>> {
    specs.iter().fold(vec![Vec::new()], |lists, spec| {
        let variants = txhunt_db::rotation(spec);
        lists
            .iter()
            .flat_map(|list| {
                variants.iter().map(move |v| {
                    let mut next = list.clone();
                    next.push(v.clone());
                    next
                })
            })
            .collect()
    })
}

/// Runs one campaign on the targets `specs` from `seed` within `budget`.
fn campaign(
    args: &FuzzArgs,
    specs: &[String],
    (seed, rotation): (u64, Option<u64>),
    budget: Budget,
    store: &Arc<Store>,
) -> anyhow::Result<Summary> {
    crate::levels::check_before_start(&args.isolation, specs)?;
    paths::writable_dir("--out", &args.out)?;
    let targets = open_targets(specs, args.bin_dir.as_deref())?;
    for target in &targets {
        // Generated cases run one session per transaction.
        target.check_sessions(args.max_txns).context("--max-txns")?;
    }
    // `all` with several targets: the levels they all offer (the campaign's default).
    let mut levels = Vec::new();
    if args.isolation != "all" || targets.len() == 1 {
        levels = isolation_flag(&args.isolation, targets[0].as_ref())?;
        for target in &targets[1..] {
            crate::levels::check_compared(&levels, target.as_ref())?;
        }
    }
    let recording = recording::open(
        args,
        store,
        (specs, &targets),
        (seed, budget.cases),
        rotation,
    )?;
    let stored = &recording.campaign;
    if stored.cases > 0 && args.format == Format::Text {
        eprintln!(
            "continuing campaign {} (seed {}): {} cases finished{}",
            stored.name,
            stored.seed,
            stored.cases,
            stored
                .case_limit
                .map_or(String::new(), |n| format!(" of {n}"))
        );
    }
    anyhow::ensure!(
        stored.case_limit.is_some() || budget.duration.is_some(),
        "--resume: campaign {} has no case budget: give --duration D",
        stored.name
    );
    let campaign = Campaign {
        seed: stored.seed,
        cases: budget.cases,
        duration: budget.duration,
        levels,
        workers: args.workers,
        out: args.out.clone(),
        generator: generator(args),
        judge: Judge {
            executor: Executor {
                detection: BlockDetection::Exact,
                statement_timeout: args.statement_timeout,
                instrument: args.history.is_some(),
            },
            oracles: txhunt_oracle::by_names(&args.oracle).context("--oracle")?,
        },
        history: args.history,
        reduce: (!args.no_reduce).then_some(AutoReduce {
            budget: args.reduce_budget,
            permissible: args.reduce_permissible,
        }),
        patterns: patterns(args)?,
        mixed: guide(args) == Guide::Mixed,
        recording: Some(recording),
    };
    interrupt::make_graceful();
    let bar = progress_bar();
    let started = std::time::Instant::now();
    let show = |stats: &Stats| {
        if let Some(bar) = &bar {
            bar.set_message(progress_line(stats, started.elapsed().as_secs_f64()));
        }
    };
    let reopen = |k: usize| open_target(&specs[k], args.bin_dir.as_deref());
    let summary = txhunt_hunt::run(&campaign, targets, &reopen, interrupt::stop_flag(), &show)?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    Ok(summary)
}

/// A spinner with a message on stderr, when stderr is a terminal.
pub(crate) fn progress_bar() -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new_spinner();
    bar.set_style(ProgressStyle::with_template("{spinner} {elapsed} {msg}").ok()?);
    bar.enable_steady_tick(Duration::from_millis(200));
    Some(bar)
}
