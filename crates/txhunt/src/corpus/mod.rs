//! `txhunt corpus run`: every known-bug scenario of a folder (see `corpus/README.md`) that
//! applies to the target, at every isolation level the target supports, each judged
//! `reproduces`, `fixed`, `n/a` or `error` ([`verdict`]); printed as a bug × level table and
//! optionally written as JUnit XML ([`report`]).

mod report;
mod verdict;

use crate::format::Format;
use crate::targets;
use anyhow::Context;
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};
use txhunt_db::Target;
use txhunt_exec::Executor;
use txhunt_model::{scenario, TestCase};
use verdict::{Cell, Verdict};

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
    let scenarios = load(&args.dir)?;
    let mut target = targets::open(&args.target, args.bin_dir.as_deref())
        .with_context(|| format!("--target {}", txhunt_db::redact(&args.target)))?;
    let label = targets::label(target.as_ref());
    let profile = target.profile().name();
    let levels = target.profile().isolation_levels().to_vec();
    let executor = Executor::default();
    let mut cells = Vec::new();
    for (file, case) in &scenarios {
        for &level in &levels {
            let cell = |verdict, reason: String| Cell {
                id: case.header.id.clone().unwrap_or_else(|| file.clone()),
                file: file.clone(),
                dbms: case.header.dbms.clone().unwrap_or_default(),
                level,
                verdict,
                reason,
            };
            if let Some(reason) = verdict::not_applicable(case, profile, level, all_levels) {
                cells.push(cell(Verdict::NotApplicable, reason));
                continue;
            }
            match executor.execute(target.as_ref(), case, level) {
                Ok(history) => {
                    let (verdict, reason) = verdict::judge(case, &history);
                    cells.push(cell(verdict, reason));
                }
                Err(e) => {
                    cells.push(cell(Verdict::Error, e.to_string()));
                    // A crashed server is replaced; the next scenario runs on a fresh one.
                    target = reopen(&args.target, args.bin_dir.as_deref())?;
                }
            }
        }
    }
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

fn reopen(spec: &str, bin_dir: Option<&Path>) -> anyhow::Result<Box<dyn Target>> {
    targets::open(spec, bin_dir).with_context(|| format!("reopening --target {spec}"))
}

/// Every scenario below `dir`, parsed, in path order; a malformed one is an error naming its
/// file, line and column.
fn load(dir: &Path) -> anyhow::Result<Vec<(String, TestCase)>> {
    let mut files = Vec::new();
    collect(dir, &mut files)
        .with_context(|| format!("{}: cannot read the corpus", dir.display()))?;
    files.sort();
    if files.is_empty() {
        anyhow::bail!("{}: no .sql scenarios", dir.display());
    }
    files
        .into_iter()
        .map(|path| {
            let name = path.display().to_string();
            let text =
                std::fs::read_to_string(&path).with_context(|| format!("{name}: cannot read"))?;
            Ok((name.clone(), scenario::parse(&text, &name)?))
        })
        .collect()
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect(&path, files)?;
        } else if path.extension().is_some_and(|x| x == "sql") {
            files.push(path);
        }
    }
    Ok(())
}
