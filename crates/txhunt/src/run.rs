//! `txhunt run`: replay scenario files on a target and check their expectations.

use crate::format::Format;
use crate::levels::isolation_flag;
use crate::render;
use crate::targets;
use anyhow::Context;
use clap::Args;
use serde::Serialize;
use std::path::PathBuf;
use std::time::Duration;
use txhunt_db::Target;
use txhunt_exec::{parse_duration, BlockDetection, Executor, TargetRunner};
use txhunt_model::{check, scenario, Check, History, Isolation, TestCase};
use txhunt_oracle::{differential, wss, Finding, Oracle};

/// Arguments of `txhunt run`.
#[derive(Args)]
pub struct RunArgs {
    /// Scenario files to replay.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The target: `sqlite`, `sqlite:DIR`, `mariadb` or `postgres` (a private server txhunt
    /// starts and stops; `postgres@BINDIR` from the binaries in BINDIR), or an existing
    /// server's URL: `mysql://…`, `postgres://…`, …. Give it twice or more to run every
    /// scenario on each and compare the runs (differential oracle; one SQL family).
    #[arg(long = "target", default_value = "sqlite")]
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
    #[arg(long, default_value = "10s", value_parser = parse_duration)]
    statement_timeout: Duration,
    /// Also judge each run with these oracles (`explicit`, `wss`; comma list). Each finding
    /// is printed as a bug candidate (exit code 1) or as permissible, with the documented
    /// behaviour that explains it and the re-executions that showed it.
    #[arg(long)]
    oracle: Option<String>,
}

/// One scenario at one level, for `--format json`.
#[derive(Serialize)]
struct RunReport<'a> {
    file: String,
    target: String,
    isolation: Option<Isolation>,
    not_applicable: Option<String>,
    passed: bool,
    checks: Vec<Check>,
    findings: Vec<Finding>,
    /// With several targets: the differential oracle's discrepancies between the first
    /// target's run and this one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    differential: Vec<Finding>,
    /// Whether this run was compared with the first target's.
    #[serde(skip)]
    compared: bool,
    history: Option<History>,
    case: &'a TestCase,
}

/// Runs every file at every chosen level; `Ok(true)` when every expectation held and no
/// oracle found a bug candidate (permissible findings are printed, not failures).
pub fn run(args: &RunArgs) -> anyhow::Result<bool> {
    let cases = args
        .files
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("{}: cannot read", path.display()))?;
            let name = path.display().to_string();
            Ok((name.clone(), scenario::parse(&text, &name)?))
        })
        .collect::<anyhow::Result<Vec<(String, TestCase)>>>()?;
    let targets = targets::open_all(&args.targets, args.bin_dir.as_deref())?;
    let first = targets[0].as_ref();
    let forced = match args.isolation.as_deref() {
        Some(flag) => Some(isolation_flag(flag, first)?),
        None => None,
    };
    let executor = Executor {
        detection: args.block_detect,
        statement_timeout: args.statement_timeout,
    };
    let oracles = match &args.oracle {
        Some(list) => {
            txhunt_oracle::by_names(list).map_err(|e| anyhow::anyhow!("--oracle: {e}"))?
        }
        None => Vec::new(),
    };
    let labels: Vec<String> = targets.iter().map(|t| targets::label(t.as_ref())).collect();
    let mut reports = Vec::new();
    let mut all_passed = true;
    for (file, case) in &cases {
        let levels = match &forced {
            Some(levels) => Ok(levels.clone()),
            None => header_levels(case, first),
        };
        let levels = match levels {
            Ok(levels) => levels,
            Err(reason) => {
                let report = RunReport {
                    file: file.clone(),
                    target: first.name(),
                    isolation: None,
                    not_applicable: Some(reason),
                    passed: true,
                    checks: Vec::new(),
                    findings: Vec::new(),
                    differential: Vec::new(),
                    compared: false,
                    history: None,
                    case,
                };
                emit(args.format, &report, case, &oracles);
                reports.push(report);
                continue;
            }
        };
        for level in levels {
            let mut baseline: Option<(History, Vec<Finding>)> = None;
            for (target, label) in targets.iter().zip(&labels) {
                let history = executor
                    .execute(target.as_ref(), case, level)
                    .with_context(|| format!("{file}: running on {label} at {level}"))?;
                let checks = check(case, &history);
                let runner = TargetRunner {
                    executor,
                    target: target.as_ref(),
                };
                let findings: Vec<Finding> = oracles
                    .iter()
                    .flat_map(|oracle| oracle.check(case, &history, &runner))
                    .collect();
                let differential = match &baseline {
                    Some((base, base_findings)) => {
                        let wss_judged = oracles.iter().any(|o| o.name() == wss::NAME);
                        let a = differential::Run {
                            label: &labels[0],
                            history: base,
                            judged: wss_judged.then_some(base_findings.as_slice()),
                        };
                        let b = differential::Run {
                            label,
                            history: &history,
                            judged: wss_judged.then_some(findings.as_slice()),
                        };
                        let first = targets[0].as_ref();
                        let mut rerun = || executor.execute(first, case, level).ok();
                        differential::judge(case, a, b, &mut rerun)
                    }
                    None => Vec::new(),
                };
                let candidate = findings
                    .iter()
                    .chain(&differential)
                    .any(Finding::is_candidate);
                let passed = checks.iter().all(|c| c.passed) && !candidate;
                all_passed &= passed;
                let compared = baseline.is_some();
                if baseline.is_none() {
                    baseline = Some((history.clone(), findings.clone()));
                }
                let report = RunReport {
                    file: file.clone(),
                    // Several targets of one kind are told apart by their versions.
                    target: if targets.len() > 1 {
                        label.clone()
                    } else {
                        target.name()
                    },
                    isolation: Some(level),
                    not_applicable: None,
                    passed,
                    checks,
                    findings,
                    differential,
                    compared,
                    history: Some(history),
                    case,
                };
                emit(args.format, &report, case, &oracles);
                reports.push(report);
            }
        }
    }
    match args.format {
        Format::Text => println!("{}", render::summary(&reports_summary(&reports))),
        Format::Json => println!("{}", serde_json::to_string_pretty(&reports)?),
    }
    Ok(all_passed)
}

fn emit(
    format: Format,
    report: &RunReport<'_>,
    case: &TestCase,
    oracles: &[Box<dyn Oracle + Send + Sync>],
) {
    if let Format::Text = format {
        let header = render::Heading {
            file: &report.file,
            target: &report.target,
            isolation: report.isolation,
        };
        match (&report.history, &report.not_applicable) {
            (Some(history), _) => {
                print!("{}", render::run(&header, case, history, &report.checks));
                let names: Vec<&str> = oracles.iter().map(|o| o.name()).collect();
                print!("{}", render::findings(&names, &report.findings));
                if report.compared {
                    print!(
                        "{}",
                        render::findings(&[differential::NAME], &report.differential)
                    );
                }
            }
            (None, Some(reason)) => print!("{}", render::not_applicable(&header, reason)),
            (None, None) => {}
        }
    }
}

fn reports_summary(reports: &[RunReport<'_>]) -> render::Summary {
    render::Summary {
        runs: reports.iter().filter(|r| r.history.is_some()).count(),
        failed: reports.iter().filter(|r| !r.passed).count(),
        not_applicable: reports
            .iter()
            .filter(|r| r.not_applicable.is_some())
            .count(),
    }
}

/// The levels of a scenario's header that the target supports (its default if none is named);
/// `Err` with the reason when it names only levels the target lacks.
fn header_levels(case: &TestCase, target: &dyn Target) -> Result<Vec<Isolation>, String> {
    let profile = target.profile();
    if case.header.isolation.is_empty() {
        return Ok(vec![profile.default_isolation()]);
    }
    let levels: Vec<Isolation> = case
        .header
        .isolation
        .iter()
        .copied()
        .filter(|l| profile.isolation_levels().contains(l))
        .collect();
    if levels.is_empty() {
        let named: Vec<&str> = case.header.isolation.iter().map(|l| l.name()).collect();
        return Err(format!(
            "written for {}; {} supports {}",
            named.join(", "),
            target.name(),
            profile.isolation_names()
        ));
    }
    Ok(levels)
}
