//! `txhunt corpus run`: every known-bug scenario of a folder (see `corpus/README.md`) that
//! applies to the target, at every isolation level the target supports, each judged
//! `reproduces`, `fixed`, `n/a` or `error` ([`txhunt_hunt::corpus`]); printed as a bug × level
//! table and optionally written as JUnit XML.

use crate::format::Format;
use anyhow::Context;
use clap::{Args, Subcommand};
use std::path::PathBuf;
use txhunt_db::{open_target, redact};
use txhunt_hunt::corpus::report;
use txhunt_hunt::scenarios;

/// `txhunt corpus …`.
#[derive(Subcommand)]
pub enum CorpusCommand {
    /// Replay every known-bug scenario that applies to the target at every level it
    /// supports; print the bug × level table.
    Run(CorpusRunArgs),
}

/// Arguments of `txhunt corpus run`.
#[derive(Args)]
pub struct CorpusRunArgs {
    /// The corpus folder (searched recursively for `.sql` scenarios).
    #[arg(default_value = "corpus")]
    dir: PathBuf,
    /// The target (as for `txhunt run --target`).
    #[arg(long, default_value = "sqlite")]
    target: String,
    /// Where the server binaries are, for `--target mariadb|postgres`.
    #[arg(long)]
    bin_dir: Option<PathBuf>,
    /// `all`: also run each scenario at the levels its header does not name (its
    /// expectations were written for the header's levels; elsewhere a failed one may be the
    /// level's documented behaviour). Default: the header's levels, the others `n/a`.
    #[arg(long)]
    isolation: Option<String>,
    /// Also write the verdicts as JUnit XML to this file (one test case per scenario × level).
    #[arg(long)]
    junit: Option<PathBuf>,
    /// Judge by the expectations only: without the DSG oracle (which runs every PoC
    /// instrumented and gives those without expectations a verdict).
    #[arg(long)]
    no_dsg: bool,
    /// Output format: the Markdown table, or the cells as JSON.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Runs a corpus command; `Ok(true)` when it ran (verdicts are data, not failures).
pub fn corpus(command: &CorpusCommand) -> anyhow::Result<bool> {
    match command {
        CorpusCommand::Run(args) => run(args),
    }
}

fn run(args: &CorpusRunArgs) -> anyhow::Result<bool> {
    let all_levels = match args.isolation.as_deref() {
        None => false,
        Some("all") => true,
        Some(other) => anyhow::bail!("--isolation: '{other}' is not accepted; only `all`"),
    };
    let scenarios = scenarios::load_dir(&args.dir)?;
    if let Some(path) = &args.junit {
        crate::paths::writable_file("--junit", path)?;
    }
    let open = || open_target(&args.target, args.bin_dir.as_deref());
    let target = open().with_context(|| format!("--target {}", redact(&args.target)))?;
    let label = target.label();
    let levels = target.profile().isolation_levels().to_vec();
    let cells = txhunt_hunt::corpus::run(
        (Default::default(), !args.no_dsg),
        &scenarios,
        target,
        &open,
        all_levels,
    )
    .with_context(|| format!("reopening --target {}", redact(&args.target)))?;
    if let Some(path) = &args.junit {
        std::fs::write(path, report::junit(&label, &cells))
            .with_context(|| format!("--junit {}: cannot write", path.display()))?;
    }
    match args.format {
        Format::Text => print!("{}", report::markdown(&label, &levels, &cells)),
        Format::Json => println!("{}", serde_json::to_string_pretty(&cells)?),
    }
    Ok(true)
}
