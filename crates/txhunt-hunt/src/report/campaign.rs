//! A campaign's live progress line and its closing summary, as text.

use super::numbers::{counted, grouped};
use crate::stats::{Stats, Summary};
use crate::PERMISSIBLE_DIR;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

/// Rates are shown once this many cases have run or [`RATES_AFTER_SECONDS`] have passed,
/// whichever comes first: before, they would extrapolate the first case's time to an hour.
pub const RATES_AFTER_CASES: u64 = 5;

/// See [`RATES_AFTER_CASES`].
pub const RATES_AFTER_SECONDS: f64 = 2.0;

/// What the summary's `rejected` means, said once.
const REJECTED: &str = "rejected: statements the DBMS refused to run (a syntax error, an unknown table or column, something unsupported), not lock waits, aborts or constraint violations; generator bugs, to keep under 5%";

/// Whether `cases` run in `elapsed` seconds are enough to show rates.
fn rates_shown(cases: u64, elapsed: f64) -> bool {
    cases >= RATES_AFTER_CASES || elapsed >= RATES_AFTER_SECONDS
}

/// The live progress line after `elapsed` seconds.
pub fn progress_line(stats: &Stats, elapsed: f64) -> String {
    let rates = if rates_shown(stats.cases, elapsed) {
        format!(
            "{:.1}/s, {} txn/h",
            stats.cases as f64 / elapsed,
            grouped((stats.transactions as f64 / elapsed * 3600.0).round() as u64)
        )
    } else {
        format!("rates after {RATES_AFTER_CASES} cases or {RATES_AFTER_SECONDS} s")
    };
    format!(
        "{} ({rates}) · blocked {:.1}% of txn statements · aborted {:.1}% of txns · rejected {:.2}% · bug candidates {} · permissible findings {}{}",
        counted(stats.cases, "case"),
        stats.blocked_percent(),
        stats.aborted_percent(),
        stats.rejected_percent(),
        in_cases(stats.findings.values().sum(), stats.candidate_cases),
        in_cases(stats.permissible.values().sum(), stats.permissible_cases),
        match stats.infrastructure {
            0 => String::new(),
            n => format!(" · infrastructure failures {}", grouped(n)),
        }
    )
}

/// `findings` found in `cases` cases: `0`, `12 (in 9 cases)`.
fn in_cases(findings: u64, cases: u64) -> String {
    match findings {
        0 => "0".into(),
        n => format!("{} (in {})", grouped(n), counted(cases, "case")),
    }
}

/// The closing summary of a campaign whose findings were saved under `out`.
pub fn summary(summary: &Summary, out: &Path) -> String {
    let s = &summary.stats;
    let mut text = String::new();
    let setup: u64 = s.setup_statements.values().sum();
    let _ = writeln!(
        text,
        "fuzz on {} (seed {}, {}): {}, {}, {} ({} setup, {} in transactions) in {:.1} s",
        summary.target,
        summary.seed,
        counted(summary.workers as u64, "worker"),
        counted(s.cases, "case"),
        counted(s.transactions, "transaction"),
        counted(s.statement_count(), "statement"),
        grouped(setup),
        grouped(s.statement_count() - setup),
        summary.elapsed_seconds
    );
    if rates_shown(s.cases, summary.elapsed_seconds) {
        let _ = writeln!(
            text,
            "throughput: {:.1} cases/s, {} transactions/hour",
            summary.cases_per_second,
            grouped(summary.transactions_per_hour.round() as u64)
        );
    } else {
        let _ = writeln!(
            text,
            "throughput: not measured (a run of fewer than {RATES_AFTER_CASES} cases and under {RATES_AFTER_SECONDS} s)"
        );
    }
    let _ = writeln!(
        text,
        "blocked {:.1}% of the transactions' statements, aborted {:.1}% of transactions, rejected {:.2}% of all statements",
        summary.blocked_percent, summary.aborted_percent, summary.rejected_percent
    );
    let _ = writeln!(text, "{REJECTED}");
    kinds(
        &mut text,
        "setup statements",
        &s.setup_statements,
        &s.setup_rejected,
    );
    kinds(
        &mut text,
        "transaction statements",
        &s.transaction_statements(),
        &s.transaction_rejected(),
    );
    levels(&mut text, s);
    anomalies(&mut text, s);
    patterns(&mut text, s);
    found(
        &mut text,
        ("bug candidates", s.candidate_cases),
        &s.findings,
        out,
    );
    found(
        &mut text,
        ("permissible findings", s.permissible_cases),
        &s.permissible,
        &out.join(PERMISSIBLE_DIR),
    );
    for (oracle, n) in &s.unjudged {
        let _ = writeln!(
            text,
            "could not judge ({oracle}): {} (a derived case could not run)",
            counted(*n, "run")
        );
    }
    for (why, n) in &s.out_of_scope {
        let _ = writeln!(
            text,
            "out of the oracle's reach ({why}): {}",
            counted(*n, "run")
        );
    }
    if let Some(last) = &s.last_infrastructure {
        let _ = writeln!(
            text,
            "infrastructure failures: {} (a server gone or a connection cut; each case was run again on a fresh server, never reported as a bug); the last: {last}",
            grouped(s.infrastructure)
        );
    }
    let r = &s.reductions;
    if !r.is_empty() {
        let (before, after) = (r.statements.iter()).fold((0, 0), |(b, a), s| (b + s.0, a + s.1));
        let _ = writeln!(
            text,
            "reduced: {}, {} → {} in all (median {:.1}× fewer; {:.0} s); flaky (not reduced): {}; did not replay: {}",
            counted(r.reduced, "finding"),
            grouped(before as u64),
            counted(after as u64, "statement"),
            r.median_ratio.unwrap_or(1.0),
            r.seconds,
            grouped(r.flaky),
            grouped(r.not_reproduced)
        );
    }
    text
}

/// A table of statements per kind, `title` naming them: executed and rejected.
fn kinds(
    text: &mut String,
    title: &str,
    executed: &BTreeMap<&'static str, u64>,
    rejected: &BTreeMap<&'static str, u64>,
) {
    let _ = writeln!(text, "{title:<24} {:>10} {:>9}", "executed", "rejected");
    for (kind, n) in executed {
        let _ = writeln!(
            text,
            "{kind:<24} {:>10} {:>9}",
            grouped(*n),
            grouped(rejected.get(kind).copied().unwrap_or(0))
        );
    }
}

/// Per isolation level, the cases, and the bug candidates and permissible findings with the
/// number of cases that gave them.
fn levels(text: &mut String, s: &Stats) {
    let _ = writeln!(
        text,
        "{:<20} {:>10} {:>26} {:>32}",
        "isolation level", "cases", "bug candidates (in cases)", "permissible findings (in cases)"
    );
    for (level, l) in &s.levels {
        let _ = writeln!(
            text,
            "{level:<20} {:>10} {:>26} {:>32}",
            grouped(l.cases),
            format!("{} ({})", grouped(l.candidates), grouped(l.candidate_cases)),
            format!(
                "{} ({})",
                grouped(l.permissible.values().sum()),
                grouped(l.permissible_cases)
            ),
        );
    }
}

/// The findings of one kind (`what`, found in `cases` cases), per oracle or behaviour, and
/// where they are saved (`dir`), or would be.
fn found(
    text: &mut String,
    (what, cases): (&str, u64),
    counts: &BTreeMap<String, u64>,
    dir: &Path,
) {
    let total: u64 = counts.values().sum();
    if total == 0 {
        let _ = writeln!(
            text,
            "{what}: none (would be saved under {})",
            dir.display()
        );
        return;
    }
    let _ = writeln!(
        text,
        "{what}: {} (in {}), saved under {}",
        grouped(total),
        counted(cases, "case"),
        dir.display()
    );
    for (name, n) in counts {
        let _ = writeln!(text, "  {name}: {}", grouped(*n));
    }
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
                grouped(n.allowed),
                grouped(n.forbidden)
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
                grouped(c.attempted),
                grouped(c.observed),
                grouped(c.prevented)
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{progress_line, summary, REJECTED};
    use crate::stats::{Stats, Summary};
    use std::collections::BTreeMap;
    use std::path::Path;

    /// 1,000 cases of 3 transactions: 2,000 setup statements and 8,000 of the transactions',
    /// 400 of them blocked; 12 permissible findings in 9 cases.
    fn stats() -> Stats {
        let mut stats = Stats::default();
        stats.cases = 1000;
        stats.transactions = 3000;
        stats.statements = BTreeMap::from([("create-table", 2000), ("update", 8000)]);
        stats.setup_statements = BTreeMap::from([("create-table", 2000)]);
        stats.blocked = 400;
        stats.permissible = BTreeMap::from([("write-skew".to_string(), 12)]);
        stats.permissible_cases = 9;
        let level = stats.levels.entry("snapshot".into()).or_default();
        level.cases = 1000;
        level.permissible = stats.permissible.clone();
        level.permissible_cases = 9;
        stats
    }

    #[test]
    fn the_progress_line_shows_rates_only_once_enough_has_run() {
        let mut one = Stats::default();
        one.cases = 1;
        one.transactions = 3;
        let line = progress_line(&one, 0.01);
        assert!(
            line.starts_with("1 case (rates after 5 cases or 2 s) · "),
            "{line}"
        );
        let line = progress_line(&stats(), 10.0);
        assert!(
            line.starts_with("1,000 cases (100.0/s, 1,080,000 txn/h) · "),
            "{line}"
        );
    }

    #[test]
    fn the_progress_line_counts_findings_apart_from_cases() {
        let line = progress_line(&stats(), 10.0);
        assert!(
            line.contains(" · blocked 5.0% of txn statements · "),
            "{line}"
        );
        assert!(
            line.ends_with(" · bug candidates 0 · permissible findings 12 (in 9 cases)"),
            "{line}"
        );
    }

    #[test]
    fn the_summary_separates_setup_explains_rejected_and_says_where_findings_go() {
        let text = summary(
            &Summary::new("sqlite".into(), 7, 1, stats(), 10.0),
            Path::new("OUT"),
        );
        let expected = [
            "fuzz on sqlite (seed 7, 1 worker): 1,000 cases, 3,000 transactions, 10,000 statements (2,000 setup, 8,000 in transactions) in 10.0 s",
            "throughput: 100.0 cases/s, 1,080,000 transactions/hour",
            "blocked 5.0% of the transactions' statements, aborted 0.0% of transactions, rejected 0.00% of all statements",
            REJECTED,
            "setup statements           executed  rejected",
            "create-table                  2,000         0",
            "transaction statements     executed  rejected",
            "update                        8,000         0",
            "isolation level           cases  bug candidates (in cases)  permissible findings (in cases)",
            "snapshot                  1,000                      0 (0)                           12 (9)",
            "bug candidates: none (would be saved under OUT)",
            "permissible findings: 12 (in 9 cases), saved under OUT/permissible",
            "  write-skew: 12",
        ];
        assert_eq!(text.lines().collect::<Vec<_>>(), expected, "{text}");
    }
}
