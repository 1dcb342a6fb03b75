//! `txhunt run`: replay scenario files on a target and check their expectations.

use crate::format::{parse_history_format, Format};
use crate::levels::isolation_flag;
use anyhow::Context;
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;
use txhunt_db::{open_targets, Target};
use txhunt_exec::{BlockDetection, Executor};
use txhunt_hunt::export::{self, HistoryFormat};
use txhunt_hunt::replay::{default_targets, replay, RunReport};
use txhunt_hunt::report::text;
use txhunt_hunt::scenarios;

/// Arguments of `txhunt run`.
#[derive(Args)]
#[command(after_help = crate::targets::TARGETS)]
pub struct RunArgs {
    /// Scenario files to replay.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The target: `sqlite`, `turso`, `turso-mvcc`, `duckdb`, `mariadb`, `postgres` or a
    /// server's URL, with a directory, version or settings (every form: *Targets* below). Give
    /// it twice or more to run every scenario on each and compare the runs (differential
    /// oracle; one SQL family). Default:
    /// the targets the scenarios' `targets:` headers name (a saved finding names its own),
    /// else `sqlite`.
    #[arg(long = "target")]
    targets: Vec<String>,
    /// Where the server binaries are, for `--target mariadb|postgres` (default: the installed ones).
    #[arg(long)]
    bin_dir: Option<PathBuf>,
    /// Isolation level to run at, or `all` for every level the target supports. Default: the
    /// levels in each scenario's header that the target supports, else the target's default.
    #[arg(long)]
    isolation: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// How blocked statements are recognized: `exact` (ask the DBMS) or `timeout:2s` (the
    /// papers' method).
    #[arg(long, default_value = "exact")]
    block_detect: BlockDetection,
    /// A statement that neither ends nor waits on a lock for this long is a hang.
    #[arg(long, default_value = "10s", value_parser = crate::flags::positive_duration)]
    statement_timeout: Duration,
    /// Also judge each run with these oracles (`explicit`, `wss`, `differential`; comma list).
    /// Each finding is printed as a bug candidate (exit code 1) or as permissible, with the
    /// documented behaviour that explains it and the re-executions that showed it. Several
    /// targets are always compared (by the differential oracle unless the list names another
    /// comparing oracle). Default: the oracles each scenario's `oracles:` header names (a
    /// saved finding names those that found it), else none.
    #[arg(long)]
    oracle: Option<String>,
    /// Run instrumented and write each run's read/write history to `--out` in this format:
    /// `json` (txhunt's), `elle`, `plume`, `dbcop`; one file per scenario, target and level.
    #[arg(long, value_name = "FORMAT", value_parser = parse_history_format)]
    history: Option<HistoryFormat>,
    /// Where `--history` writes.
    #[arg(long, default_value = "txhunt-out")]
    out: PathBuf,
}

/// Runs every file at every chosen level; `Ok(true)` when every expectation held and no
/// oracle found a bug candidate (permissible findings are printed, not failures).
pub fn run(args: &RunArgs) -> anyhow::Result<bool> {
    let scenarios = args
        .files
        .iter()
        .map(|path| scenarios::load_file(path))
        .collect::<Result<Vec<_>, _>>()?;
    if args.history.is_some() {
        crate::paths::writable_dir("--out", &args.out)?;
    }
    let specs = if args.targets.is_empty() {
        default_targets(&scenarios)?
    } else {
        args.targets.clone()
    };
    if let Some(flag) = &args.isolation {
        crate::levels::check_before_start(flag, &specs)?;
    }
    let targets = open_targets(&specs, args.bin_dir.as_deref())?;
    let first = targets[0].as_ref();
    let forced = match args.isolation.as_deref() {
        Some(flag) => Some(isolation_flag(flag, first)?),
        None => None,
    };
    let executor = Executor {
        detection: args.block_detect,
        statement_timeout: args.statement_timeout,
        instrument: args.history.is_some(),
    };
    let oracles = match &args.oracle {
        Some(list) => Some(txhunt_oracle::ids(list).context("--oracle")?),
        None => None,
    };
    let on: Vec<&dyn Target> = targets.iter().map(|t| t.as_ref()).collect();
    let mut written = Ok(());
    let mut emit = |report: &RunReport<'_>| {
        if args.format == Format::Text {
            print!("{}", text::report(report));
        }
        if let (Some(format), Some(history), Ok(())) = (args.history, &report.history, &written) {
            written = write_history(&args.out, format, report, history);
        }
    };
    let reports = replay(
        executor,
        oracles.as_deref(),
        &on,
        &scenarios,
        forced.as_deref(),
        &mut emit,
    )?;
    written?;
    match args.format {
        Format::Text => println!("{}", text::summary(&reports)),
        Format::Json => println!("{}", serde_json::to_string_pretty(&reports)?),
    }
    Ok(reports.iter().all(|r| r.passed))
}

/// Writes `report`'s history in `format` to `out`, named for its scenario, target and level.
fn write_history(
    out: &std::path::Path,
    format: HistoryFormat,
    report: &RunReport<'_>,
    history: &txhunt_model::History,
) -> anyhow::Result<()> {
    let scenario = std::path::Path::new(&report.file)
        .file_stem()
        .map_or_else(|| report.file.clone(), |s| s.to_string_lossy().into_owned());
    let level = report
        .isolation
        .map_or("default".to_string(), |l| l.to_string());
    let name: String = format!("{scenario}.{}.{level}", report.target)
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '-'
            }
        })
        .collect();
    let path = export::write(&out.join(name), format, report.case, history)
        .with_context(|| format!("writing the {} history of {}", format.name(), report.file))?;
    eprintln!("history: {}", path.display());
    Ok(())
}
