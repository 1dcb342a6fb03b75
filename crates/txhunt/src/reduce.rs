//! `txhunt reduce`: cut a finding's scenario down to what the finding needs.

use crate::flags::positive_duration;
use crate::levels::isolation_flag;
use anyhow::Context;
use clap::Args;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use txhunt_db::{open_targets, Target};
use txhunt_exec::Executor;
use txhunt_hunt::reduce::{median_ratio, reduce, reduced_path, write_beside, Goal, Reduction};
use txhunt_hunt::replay::default_targets;
use txhunt_hunt::scenarios;
use txhunt_hunt::store::{header_list, FINDING_KEY, ORACLES_KEY};
use txhunt_hunt::Judge;
use txhunt_oracle::OracleId;

/// Arguments of `txhunt reduce`.
#[derive(Args)]
#[command(after_help = crate::targets::TARGETS)]
pub struct ReduceArgs {
    /// The scenarios: saved findings (a header names each one's finding, targets and
    /// oracles) or any scenario with `--finding`. Each is reduced in turn; with several, a
    /// table of them all and the median reduction follow.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The target (*Targets* below; default: the scenario's `targets:` header).
    #[arg(long = "target")]
    targets: Vec<String>,
    /// Where the server binaries are, for `mariadb|postgres`.
    #[arg(long)]
    bin_dir: Option<PathBuf>,
    /// The oracles that judge each smaller case (default: the scenario's `oracles:` header,
    /// else `explicit,wss`).
    #[arg(long)]
    oracle: Option<String>,
    /// The isolation level (default: the scenario's first, else the target's default).
    #[arg(long)]
    isolation: Option<String>,
    /// The finding to keep, `ORACLE SIGNATURE` (e.g. `wss tx-wss:final-state`; default: the
    /// scenario's `finding:` header).
    #[arg(long)]
    finding: Option<String>,
    /// A permissible finding counts too (by default only a bug candidate does).
    #[arg(long)]
    keep_permissible: bool,
    /// Stop searching after this long, keeping the smallest case found.
    #[arg(long, default_value = "60s", value_parser = positive_duration)]
    budget: Duration,
    /// A statement that neither ends nor waits on a lock for this long is a hang (as `fuzz`
    /// and `run` judge it). Reducing a hang tries smaller cases at a shorter timeout and
    /// confirms the result at this one.
    #[arg(long, default_value = "10s", value_parser = positive_duration)]
    statement_timeout: Duration,
}

/// Reduces every scenario, writing `<name>.reduced.sql` and its log `<name>.reduced.json`
/// beside each; `Ok(false)` when a finding is flaky (not reduced). With one scenario its
/// error is the command's; with several each error is printed and the rest go on, and the
/// command fails when any did.
pub fn reduce_files(args: &ReduceArgs) -> anyhow::Result<bool> {
    if let [file] = args.files.as_slice() {
        return Ok(reduce_file(args, file)?.flaky.is_none());
    }
    let mut rows = Vec::new();
    let mut failed = 0;
    for file in &args.files {
        match reduce_file(args, file) {
            Ok(reduction) => rows.push((file.display().to_string(), reduction)),
            Err(e) => {
                eprintln!("error: {}: {e:#}", file.display());
                failed += 1;
            }
        }
    }
    print!("{}", table(&rows));
    anyhow::ensure!(
        failed == 0,
        "{failed} of {} scenarios could not be reduced",
        args.files.len()
    );
    Ok(rows.iter().all(|(_, r)| r.flaky.is_none()))
}

/// The reductions of several scenarios, one line each, and the median.
fn table(rows: &[(String, Reduction)]) -> String {
    let mut text = format!(
        "\n{:<60} {:>12} {:>14} {:>8}\n",
        "scenario", "statements", "transactions", "seconds"
    );
    let mut sizes = Vec::new();
    for (name, r) in rows {
        let short = name.rsplit('/').next().unwrap_or(name);
        let note = match (r.flaky, r.out_of_time) {
            (Some(f), _) => format!(" flaky ({} of {})", f.reproduced, f.replays),
            (None, true) => " out of time".to_string(),
            (None, false) => String::new(),
        };
        text.push_str(&format!(
            "{short:<60} {:>12} {:>14} {:>8.1}{note}\n",
            format!("{} → {}", r.statements.0, r.statements.1),
            format!("{} → {}", r.transactions.0, r.transactions.1),
            r.seconds
        ));
        if r.flaky.is_none() {
            sizes.push(r.statements);
        }
    }
    if let Some(median) = median_ratio(&sizes) {
        let seconds: f64 = rows.iter().map(|(_, r)| r.seconds).sum();
        text.push_str(&format!(
            "{} reduced: median {median:.1}× fewer statements, {:.1} s per reduction on average\n",
            sizes.len(),
            seconds / rows.len() as f64
        ));
    }
    text
}

/// Reduces one scenario and writes the reduction beside it.
fn reduce_file(args: &ReduceArgs, file: &Path) -> anyhow::Result<Reduction> {
    let (name, case) = scenarios::load_file(file)?;
    let finding = match &args.finding {
        Some(f) => f.clone(),
        None => (case.header.extra.iter())
            .find(|(key, _)| key == FINDING_KEY)
            .map(|(_, value)| value.clone())
            .with_context(|| {
                format!("{name}: no `-- finding: ORACLE SIGNATURE` header; give --finding")
            })?,
    };
    let (oracle, signature) = finding
        .split_once(' ')
        .with_context(|| format!("finding '{finding}': expected ORACLE SIGNATURE"))?;
    let goal = Goal {
        oracle: oracle.parse().context("the finding's oracle")?,
        signature: signature.trim().to_string(),
        permissible: args.keep_permissible,
    };
    let specs = if args.targets.is_empty() {
        default_targets(&[(name.clone(), case.clone())])?
    } else {
        args.targets.clone()
    };
    let targets = open_targets(&specs, args.bin_dir.as_deref())?;
    let on: Vec<&dyn Target> = targets.iter().map(|t| t.as_ref()).collect();
    let level = match (&args.isolation, case.header.isolation.first()) {
        (Some(flag), _) => isolation_flag(flag, on[0])?[0],
        (None, Some(&level)) => level,
        (None, None) => on[0].profile().default_isolation(),
    };
    let oracles = match (&args.oracle, header_list(&case, ORACLES_KEY)) {
        (Some(list), _) => list.clone(),
        (None, Some(listed)) => listed.join(","),
        (None, None) => "explicit,wss".to_string(),
    };
    let mut ids: Vec<OracleId> = txhunt_oracle::ids(&oracles).context("--oracle")?;
    if !ids.contains(&goal.oracle) {
        ids.push(goal.oracle);
    }
    let judge = Judge {
        executor: Executor {
            statement_timeout: args.statement_timeout,
            ..Executor::default()
        },
        oracles: ids.into_iter().map(txhunt_oracle::oracle).collect(),
    };
    let reduction = reduce(
        &case,
        &judge,
        &on,
        level,
        &goal,
        args.budget,
        &AtomicBool::new(false),
    )?;
    write_beside(file, &reduction)
        .with_context(|| format!("writing the reduction beside {}", file.display()))?;
    if let Some(flaky) = reduction.flaky {
        println!(
            "{name}: flaky: the finding {finding} replayed {} of {} times; not reduced",
            flaky.reproduced, flaky.replays
        );
        return Ok(reduction);
    }
    println!(
        "{name}: {finding} kept with {} → {} statements, {} → {} transactions ({} cases tried in {:.1} s{}); wrote {}",
        reduction.statements.0,
        reduction.statements.1,
        reduction.transactions.0,
        reduction.transactions.1,
        reduction.log.len(),
        reduction.seconds,
        if reduction.out_of_time { ", out of time" } else { "" },
        reduced_path(file).display()
    );
    Ok(reduction)
}
