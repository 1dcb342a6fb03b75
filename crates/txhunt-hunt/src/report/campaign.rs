//! A campaign's live progress line and its closing summary, as text.

use crate::stats::{Stats, Summary};
use crate::PERMISSIBLE_DIR;
use std::fmt::Write;
use std::path::Path;

/// The live progress line after `elapsed` seconds.
pub fn progress_line(stats: &Stats, elapsed: f64) -> String {
    let statements = stats.statement_count();
    format!(
        "{} cases ({:.1}/s, {:.0} txn/h) · blocked {:.1}% · aborted {:.1}% · rejected {:.2}% · bug candidates {} · permissible {}{}",
        stats.cases,
        stats.cases as f64 / elapsed.max(1e-9),
        stats.transactions as f64 / elapsed.max(1e-9) * 3600.0,
        Stats::percent(stats.blocked, statements),
        Stats::percent(stats.aborted, stats.transactions),
        Stats::percent(stats.rejected_count(), statements),
        stats.findings.values().sum::<u64>(),
        stats.permissible.values().sum::<u64>(),
        match stats.infrastructure {
            0 => String::new(),
            n => format!(" · infrastructure failures {n}"),
        }
    )
}

/// The closing summary of a campaign whose findings were saved under `out`.
pub fn summary(summary: &Summary, out: &Path) -> String {
    let s = &summary.stats;
    let mut text = String::new();
    let _ = writeln!(
        text,
        "fuzz on {} (seed {}, {} worker{}): {} cases, {} transactions, {} statements in {:.1} s",
        summary.target,
        summary.seed,
        summary.workers,
        if summary.workers == 1 { "" } else { "s" },
        s.cases,
        s.transactions,
        s.statement_count(),
        summary.elapsed_seconds
    );
    let _ = writeln!(
        text,
        "throughput: {:.1} cases/s, {:.0} transactions/hour",
        summary.cases_per_second, summary.transactions_per_hour
    );
    let _ = writeln!(
        text,
        "blocked {:.1}% of statements, aborted {:.1}% of transactions, rejected {:.2}% of statements",
        summary.blocked_percent, summary.aborted_percent, summary.rejected_percent
    );
    let _ = writeln!(
        text,
        "{:<20} {:>10} {:>9}",
        "statement kind", "executed", "rejected"
    );
    for (kind, n) in &s.statements {
        let _ = writeln!(
            text,
            "{kind:<20} {n:>10} {:>9}",
            s.rejected.get(kind).copied().unwrap_or(0)
        );
    }
    let _ = writeln!(
        text,
        "{:<20} {:>10} {:>15} {:>12}",
        "isolation level", "cases", "bug candidates", "permissible"
    );
    for (level, l) in &s.levels {
        let _ = writeln!(
            text,
            "{level:<20} {:>10} {:>15} {:>12}",
            l.cases,
            l.candidates,
            l.permissible.values().sum::<u64>()
        );
    }
    anomalies(&mut text, s);
    patterns(&mut text, s);
    if s.findings.is_empty() {
        let _ = writeln!(text, "bug candidates: none");
    }
    for (oracle, n) in &s.findings {
        let _ = writeln!(
            text,
            "bug candidates ({oracle}): {n}, saved under {}",
            out.display()
        );
    }
    for (behaviour, n) in &s.permissible {
        let _ = writeln!(
            text,
            "permissible ({behaviour}): {n}, saved under {}",
            out.join(PERMISSIBLE_DIR).display()
        );
    }
    for (oracle, n) in &s.unjudged {
        let _ = writeln!(
            text,
            "could not judge ({oracle}): {n} runs (a derived case could not run)"
        );
    }
    for (why, n) in &s.out_of_scope {
        let _ = writeln!(text, "out of the oracle's reach ({why}): {n} runs");
    }
    if let Some(last) = &s.last_infrastructure {
        let _ = writeln!(
            text,
            "infrastructure failures: {} (a server gone or a connection cut; each case was run again on a fresh server, never reported as a bug); the last: {last}",
            s.infrastructure
        );
    }
    let r = &s.reductions;
    if !r.is_empty() {
        let (before, after) = (r.statements.iter()).fold((0, 0), |(b, a), s| (b + s.0, a + s.1));
        let _ = writeln!(
            text,
            "reduced: {} findings, {before} → {after} statements in all (median {:.1}× fewer; {:.0} s); flaky (not reduced): {}; did not replay: {}",
            r.reduced,
            r.median_ratio.unwrap_or(1.0),
            r.seconds,
            r.flaky,
            r.not_reproduced
        );
    }
    text
}

/// The Adya phenomena the DSG oracle observed, per level: allowed (documented) and forbidden
/// (bug candidates).
fn anomalies(text: &mut String, s: &Stats) {
    if s.levels.values().all(|l| l.anomalies.is_empty()) {
        return;
    }
    let _ = writeln!(
        text,
        "{:<20} {:<10} {:>8} {:>10}",
        "phenomena (dsg)", "class", "allowed", "forbidden"
    );
    for (level, l) in &s.levels {
        for (class, n) in &l.anomalies {
            let _ = writeln!(
                text,
                "{level:<20} {class:<10} {:>8} {:>10}",
                n.allowed, n.forbidden
            );
        }
    }
}

/// The anomaly patterns that guided cases, per level: attempted, observed by the DSG oracle,
/// prevented by the DBMS (a lock wait or an abort).
fn patterns(text: &mut String, s: &Stats) {
    if s.levels.values().all(|l| l.patterns.is_empty()) {
        return;
    }
    let _ = writeln!(
        text,
        "{:<20} {:<22} {:>9} {:>9} {:>9}",
        "patterns", "pattern", "attempted", "observed", "prevented"
    );
    for (level, l) in &s.levels {
        for (name, c) in &l.patterns {
            let _ = writeln!(
                text,
                "{level:<20} {name:<22} {:>9} {:>9} {:>9}",
                c.attempted, c.observed, c.prevented
            );
        }
    }
}
