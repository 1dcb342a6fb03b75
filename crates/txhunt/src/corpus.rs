//! `txhunt corpus run`: every known-bug scenario of a folder (see `corpus/README.md`) that
//! applies to the target, at every isolation level the target supports, each judged
//! `reproduces`, `fixed`, `n/a` or `error` ([`txhunt_hunt::corpus`]); printed as a bug × level
//! table (several targets: a bug × target table, e.g. across PostgreSQL versions) and
//! optionally written as JUnit XML.

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
#[command(after_help = crate::targets::TARGETS)]
pub struct CorpusRunArgs {
    /// The corpus folder (searched recursively for `.sql` scenarios).
    #[arg(default_value = "corpus")]
    dir: PathBuf,
    /// The target (*Targets* below). Give it twice or more (`--target postgres@12
    /// --target postgres@18`) to run the corpus on each in turn and print a bug × target table
    /// (the versions a bug affects).
    #[arg(long = "target", default_value = "sqlite")]
    targets: Vec<String>,
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
    let mut runs = Vec::new();
    let mut levels = Vec::new();
    for spec in &args.targets {
        let open = || open_target(spec, args.bin_dir.as_deref());
        let target = open().with_context(|| format!("--target {}", redact(spec)))?;
        let label = target.label();
        levels = target.profile().isolation_levels().to_vec();
        let cells = txhunt_hunt::corpus::run(
            (Default::default(), !args.no_dsg),
            &scenarios,
            target,
            &open,
            all_levels,
        )
        .with_context(|| format!("reopening --target {}", redact(spec)))?;
        runs.push((label, cells));
    }
    if let Some(path) = &args.junit {
        std::fs::write(path, report::junit(&runs))
            .with_context(|| format!("--junit {}: cannot write", path.display()))?;
    }
    match (args.format, runs.as_slice()) {
        (Format::Text, [(label, cells)]) => print!("{}", report::markdown(label, &levels, cells)),
        (Format::Text, _) => print!("{}", report::versions_markdown(&runs)),
        (Format::Json, [(_, cells)]) => println!("{}", serde_json::to_string_pretty(cells)?),
        (Format::Json, _) => {
            let per_target: Vec<_> = (runs.iter())
                .map(|(target, cells)| serde_json::json!({ "target": target, "cells": cells }))
                .collect();
            println!("{}", serde_json::to_string_pretty(&per_target)?);
        }
    }
    Ok(true)
}
