//! `txhunt bench block`: exact block detection versus the papers' timeout; `txhunt bench
//! instrument`: instrumented versus plain execution ([`txhunt_hunt::bench`]).

use crate::format::Format;
use clap::{Args, Subcommand};
use std::path::PathBuf;
use std::time::Duration;
use txhunt_db::open_target;
use txhunt_exec::parse_duration;

/// Benchmarks.
#[derive(Subcommand)]
pub enum BenchCommand {
    /// Exact lock-wait detection versus the papers' timeout, on scenarios that block.
    Block(BlockArgs),
    /// Instrumented (read/write histories) versus plain execution of the same generated cases.
    Instrument(InstrumentArgs),
}

/// Arguments of `txhunt bench instrument`.
#[derive(Args)]
pub struct InstrumentArgs {
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
            let target = open_target(&args.target, args.bin_dir.as_deref())?;
            let report = txhunt_hunt::bench::instrument(
                target.as_ref(),
                args.cases,
                args.seed,
                args.repeat,
            )?;
            print(args.format, &report, || report.text())
        }
    }
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
