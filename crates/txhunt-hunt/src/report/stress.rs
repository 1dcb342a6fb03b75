//! A stress run's live progress line and its closing summary, as text.

use crate::stress::Report;
use std::fmt::Write;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::Duration;
use txhunt_exec::stress::Counters;

/// The live progress line of the run `title` after `elapsed`.
pub fn progress_line(title: &str, counters: &Counters, elapsed: Duration) -> String {
    let committed = counters.committed.load(Ordering::Relaxed);
    format!(
        "{title}: {committed} transactions committed ({:.0}/s), {} aborted · history {} statements",
        committed as f64 / elapsed.as_secs_f64().max(1e-9),
        counters.aborted.load(Ordering::Relaxed),
        counters.statements.load(Ordering::Relaxed),
    )
}

/// The closing summary of `report`, saved at `path`.
pub fn summary(report: &Report, path: &Path) -> String {
    let mut text = String::new();
    let idle = match report.idle {
        0 => String::new(),
        n => format!(", {n} idle transactions held open"),
    };
    let _ = writeln!(
        text,
        "stress on {}: {} at {}, {} sessions over {} keys{idle}, seed {}",
        report.target, report.workload, report.isolation, report.sessions, report.keys, report.seed
    );
    let errors: Vec<String> = (report.errors.iter())
        .map(|(class, n)| format!("{class} {n}"))
        .collect();
    let _ = writeln!(
        text,
        "  {:.1} s: {} transactions committed ({:.0}/s), {} aborted{}",
        report.seconds,
        report.committed,
        report.committed_per_second,
        report.aborted,
        match errors.is_empty() {
            true => String::new(),
            false => format!(" (errors: {})", errors.join(", ")),
        }
    );
    if report.rounds > 1 {
        let _ = writeln!(
            text,
            "  {} rounds, each on a fresh database (a round ends when its history is full: --max-history); the largest, {} statements, checked in {:.2} s",
            report.rounds, report.largest_history, report.largest_check_seconds
        );
    }
    let _ = writeln!(
        text,
        "  history of {} statements checked in {:.2} s (DSG, the {} invariant, real-time order)",
        report.statements, report.check_seconds, report.workload
    );
    for (class, reason) in &report.allowed {
        let _ = writeln!(text, "  ALLOWED {class}: {reason}");
    }
    for (invariant, n) in &report.allowed_violations {
        let _ = writeln!(
            text,
            "  ALLOWED {invariant} ×{n} (the level lets its phenomenon through)"
        );
    }
    for reason in &report.unjudged {
        let _ = writeln!(text, "  not judged: {reason}");
    }
    if let Some(failure) = &report.infrastructure {
        let _ = writeln!(
            text,
            "  infrastructure failure, verdicts void (not a DBMS bug): {failure}"
        );
    }
    let new = report.new_candidates().count();
    let known_text = match report.candidates.len() - new {
        0 => String::new(),
        n => format!(" and {n} known bug{}", if n == 1 { "" } else { "s" }),
    };
    match (new, report.candidates.len()) {
        (_, 0) => {
            let _ = writeln!(text, "  no bug candidate");
        }
        (n, _) => {
            let _ = writeln!(
                text,
                "  {n} new bug candidate{}{known_text}:",
                if n == 1 { "" } else { "s" }
            );
        }
    }
    for (k, candidate) in report.candidates.iter().enumerate() {
        let _ = writeln!(
            text,
            "  {}. [{}] {}",
            k + 1,
            candidate.source,
            candidate.summary
        );
        let round = match report.rounds {
            1 => String::new(),
            _ => format!(" (round {}, seed {})", candidate.round, candidate.seed),
        };
        let _ = writeln!(
            text,
            "     {} statements of the involved transactions in the report{round}",
            candidate.excerpt.len()
        );
        if let Some(bug) = candidate.known {
            let _ = writeln!(
                text,
                "     KNOWN: matches the signature of {} ({}); not a new candidate",
                bug.id, bug.report
            );
        }
        if let Some(replay) = &candidate.replay {
            let _ = writeln!(
                text,
                "     deterministic replay: {} (statements in the order they were {}; {} → {} statements)",
                replay.verdict, replay.order, replay.statements.0, replay.statements.1
            );
        }
    }
    let _ = writeln!(text, "  report: {}", path.display());
    text
}
