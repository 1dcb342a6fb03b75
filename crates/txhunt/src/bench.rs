//! `txhunt bench block`: exact block detection versus the papers' timeout
//! ([`txhunt_hunt::bench`]).

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
    let BenchCommand::Block(args) = command;
    let target = open_target(&args.target, args.bin_dir.as_deref())?;
    let report = txhunt_hunt::bench::block(target.as_ref(), args.timeout, args.repeat)?;
    match args.format {
        Format::Json => println!("{}", serde_json::to_string_pretty(&report)?),
        Format::Text => print!("{}", report.text()),
    }
    Ok(true)
}
