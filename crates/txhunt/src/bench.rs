//! `txhunt bench block`: the same blocking scenarios with exact block detection and with the
//! papers' timeout, time per case for both and their ratio.

use crate::format::Format;
use clap::{Args, Subcommand};
use serde::Serialize;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use txhunt_db::open_target;
use txhunt_exec::{parse_duration, BlockDetection, Executor};
use txhunt_model::{scenario, Isolation, TestCase};

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

/// The built-in blocking scenarios of each DBMS family.
const SQLITE: &[(&str, &str)] = &[
    (
        "writer-blocks-writer",
        include_str!("../../../examples/01-writer-blocks-writer.sql"),
    ),
    (
        "rollback-undoes",
        include_str!("../../../examples/03-rollback-undoes.sql"),
    ),
    (
        "autocommit-interleaved",
        include_str!("../../../examples/05-autocommit-interleaved.sql"),
    ),
];
const MARIADB: &[(&str, &str)] = &[
    (
        "lost-update",
        include_str!("../../../examples/mariadb/lost-update.sql"),
    ),
    (
        "deadlock",
        include_str!("../../../examples/mariadb/deadlock.sql"),
    ),
    (
        "serializable-read-locks",
        include_str!("../../../examples/mariadb/serializable-read-locks.sql"),
    ),
];
const POSTGRES: &[(&str, &str)] = &[
    (
        "lost-update-refused",
        include_str!("../../../examples/postgres/lost-update-refused.sql"),
    ),
    (
        "read-committed-recheck",
        include_str!("../../../examples/postgres/read-committed-recheck.sql"),
    ),
    (
        "deadlock",
        include_str!("../../../examples/postgres/deadlock.sql"),
    ),
];

/// One case's timings.
#[derive(Serialize)]
struct CaseResult {
    case: String,
    isolation: Isolation,
    blocked_statements: usize,
    exact_ms: f64,
    timeout_ms: f64,
    ratio: f64,
    same_schedule: bool,
}

/// The whole run.
#[derive(Serialize)]
struct Report {
    target: String,
    timeout_ms: f64,
    cases: Vec<CaseResult>,
    total_exact_ms: f64,
    total_timeout_ms: f64,
    ratio: f64,
}

/// Runs `txhunt bench …`.
pub fn bench(command: &BenchCommand) -> anyhow::Result<bool> {
    let BenchCommand::Block(args) = command;
    let target = open_target(&args.target, args.bin_dir.as_deref())?;
    let scenarios = match target.profile().name() {
        "sqlite" => SQLITE,
        "mariadb" | "mysql" | "tidb" => MARIADB,
        _ => POSTGRES,
    };
    let exact = Executor::default();
    let timeout = Executor {
        detection: BlockDetection::Timeout(args.timeout),
        ..Executor::default()
    };
    let mut cases = Vec::new();
    for (name, text) in scenarios {
        let case = scenario::parse(text, name)?;
        for level in levels(&case, target.profile().isolation_levels()) {
            let (exact_ms, exact_history) =
                median_run(&exact, target.as_ref(), &case, level, args.repeat)?;
            let blocked = exact_history.steps.iter().filter(|s| s.blocked).count();
            if blocked == 0 {
                continue; // only cases that block compare the two methods
            }
            let (timeout_ms, timeout_history) =
                median_run(&timeout, target.as_ref(), &case, level, args.repeat)?;
            cases.push(CaseResult {
                case: name.to_string(),
                isolation: level,
                blocked_statements: blocked,
                exact_ms,
                timeout_ms,
                ratio: timeout_ms / exact_ms,
                same_schedule: exact_history.schedule == timeout_history.schedule,
            });
        }
    }
    let total_exact_ms: f64 = cases.iter().map(|c| c.exact_ms).sum();
    let total_timeout_ms: f64 = cases.iter().map(|c| c.timeout_ms).sum();
    let report = Report {
        target: target.name(),
        timeout_ms: args.timeout.as_secs_f64() * 1000.0,
        ratio: total_timeout_ms / total_exact_ms,
        cases,
        total_exact_ms,
        total_timeout_ms,
    };
    match args.format {
        Format::Json => println!("{}", serde_json::to_string_pretty(&report)?),
        Format::Text => print_text(&report),
    }
    Ok(true)
}

/// The levels of the scenario's header the target has (its levels if the header names none).
fn levels(case: &TestCase, supported: &[Isolation]) -> Vec<Isolation> {
    if case.header.isolation.is_empty() {
        return supported.to_vec();
    }
    case.header
        .isolation
        .iter()
        .copied()
        .filter(|l| supported.contains(l))
        .collect()
}

/// The median wall time of `repeat` executions, in ms, and the last history.
fn median_run(
    executor: &Executor,
    target: &dyn txhunt_db::Target,
    case: &TestCase,
    level: Isolation,
    repeat: usize,
) -> anyhow::Result<(f64, txhunt_model::History)> {
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..repeat.max(1) {
        let start = Instant::now();
        let history = executor.execute(target, case, level)?;
        times.push(start.elapsed().as_secs_f64() * 1000.0);
        last = Some(history);
    }
    times.sort_by(f64::total_cmp);
    let history = last.ok_or_else(|| anyhow::anyhow!("no run"))?;
    Ok((times[times.len() / 2], history))
}

fn print_text(report: &Report) {
    println!(
        "block detection on {}: exact probe vs {} ms timeout (median of runs)",
        report.target, report.timeout_ms
    );
    println!(
        "{:<26} {:<17} {:>7} {:>10} {:>12} {:>8}  same schedule",
        "case", "isolation", "blocked", "exact ms", "timeout ms", "ratio"
    );
    for c in &report.cases {
        println!(
            "{:<26} {:<17} {:>7} {:>10.1} {:>12.1} {:>8.1}  {}",
            c.case,
            c.isolation.name(),
            c.blocked_statements,
            c.exact_ms,
            c.timeout_ms,
            c.ratio,
            if c.same_schedule { "yes" } else { "NO" }
        );
    }
    println!(
        "total: exact {:.1} ms, timeout {:.1} ms, ratio {:.1}",
        report.total_exact_ms, report.total_timeout_ms, report.ratio
    );
}
