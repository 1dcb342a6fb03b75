//! Text output of `txhunt run`: each run's schedule, fates, final state, checks and the
//! oracles' verdicts, and the closing line.

use crate::replay::RunReport;
use std::fmt::Write;
use txhunt_model::check::one_line;
use txhunt_model::{Check, Event, History, Isolation, TestCase, TxnStatus};
use txhunt_oracle::{Detail, Excuse, Finding, OracleId, Unjudged};

/// What a run is of.
struct Heading<'a> {
    file: &'a str,
    target: &'a str,
    isolation: Option<Isolation>,
}

impl Heading<'_> {
    fn line(&self) -> String {
        match self.isolation {
            Some(level) => format!("== {} · {} · {level}\n", self.file, self.target),
            None => format!("== {} · {}\n", self.file, self.target),
        }
    }
}

const SQL_WIDTH: usize = 56;

/// One report of `txhunt run`: the run (see the run function of this module) and the verdicts of its single-run
/// oracles and of the comparison with the first target; or why the scenario does not apply.
pub fn report(report: &RunReport<'_>) -> String {
    let heading = Heading {
        file: &report.file,
        target: &report.target,
        isolation: report.isolation,
    };
    let mut out = String::new();
    match (&report.history, &report.not_applicable) {
        (Some(history), _) => {
            out.push_str(&run(&heading, report.case, history, &report.checks));
            out.push_str(&findings(&report.oracles, &report.findings));
            if report.compared {
                out.push_str(&findings(&[OracleId::Differential], &report.differential));
            }
            out.push_str(&unjudged(&report.unjudged));
        }
        (None, Some(reason)) => out.push_str(&not_applicable(&heading, reason)),
        (None, None) => {}
    }
    out
}

/// The observed run of `case` on `target` at `isolation` (titled `file`) as `txhunt run` shows
/// it: the schedule, the transactions' fates and the final state.
pub fn observed(
    file: &str,
    target: &str,
    isolation: Option<Isolation>,
    case: &TestCase,
    history: &History,
) -> String {
    let heading = Heading {
        file,
        target,
        isolation,
    };
    run(&heading, case, history, &[])
}

/// The actual schedule, the transactions' fates, the final state and the checks of one run.
fn run(heading: &Heading<'_>, case: &TestCase, history: &History, checks: &[Check]) -> String {
    let mut out = heading.line();
    for (stmt, outcome) in case.init.iter().zip(&history.init) {
        if !outcome.succeeded() {
            let _ = writeln!(
                out,
                "   setup     {}  {outcome}",
                clip(&one_line(&stmt.sql))
            );
        }
    }
    let _ = writeln!(out, "   #  session  {:<SQL_WIDTH$}  outcome", "statement");
    let txns = case.txns();
    let mut row = 0;
    for event in &history.schedule {
        row += 1;
        let label = format!("{row:>4}");
        match event {
            Event::Blocked { step } => line(&mut out, &label, &case.steps[*step], "blocked".into()),
            Event::Completed { step } => {
                let record = &history.steps[*step];
                let mark = if record.blocked { "resumed: " } else { "" };
                line(
                    &mut out,
                    &label,
                    &case.steps[*step],
                    format!("{mark}{}", record.outcome),
                );
            }
            Event::Rollback { txn, outcome } => {
                let session = txns.get(*txn).map_or("?", |t| t.session.as_str());
                let _ = writeln!(
                    out,
                    "{label}  {session:<7}  {:<SQL_WIDTH$}  {outcome}",
                    "ROLLBACK  (sent by txhunt)"
                );
            }
        }
    }
    for (step, record) in case.steps.iter().zip(&history.steps) {
        if record.completed.is_none() {
            line(&mut out, "   -", step, record.outcome.to_string());
        }
    }
    let fates: Vec<String> = history
        .txns
        .iter()
        .map(|t| format!("{} {}", t.label, fate(&t.status, case)))
        .collect();
    let _ = writeln!(out, "   transactions: {}", fates.join(", "));
    match (&history.final_state, &history.final_state_error) {
        (Some(state), _) => {
            for line in state.to_string().lines() {
                let _ = writeln!(out, "   final: {line}");
            }
        }
        (None, Some(e)) => {
            let _ = writeln!(out, "   final state unreadable: {e}");
        }
        (None, None) => {}
    }
    let passed = checks.iter().filter(|c| c.passed).count();
    let failed = checks.len() - passed;
    let _ = writeln!(
        out,
        "   expectations: {passed} held, {failed} did not{}",
        if failed == 0 { "" } else { "  ← FAILED" }
    );
    for c in checks.iter().filter(|c| !c.passed) {
        let at = c.line.map_or(String::new(), |l| format!("line {l}: "));
        let _ = writeln!(
            out,
            "   FAIL {at}{}\n        expected {}\n        observed {}",
            c.subject, c.expected, c.observed
        );
    }
    out.push('\n');
    out
}

fn fate(status: &TxnStatus, case: &TestCase) -> String {
    match status {
        TxnStatus::Committed => "committed".into(),
        TxnStatus::RolledBack => "rolled back".into(),
        TxnStatus::Aborted {
            step,
            rollback_sent,
        } => {
            let line = case.steps[*step]
                .stmt
                .line
                .map_or(String::new(), |l| format!(" at line {l}"));
            let how = if *rollback_sent {
                ", ROLLBACK sent"
            } else {
                ""
            };
            format!("aborted{line}{how}")
        }
        TxnStatus::Unfinished => "unfinished".into(),
    }
}

/// The oracles' verdicts on one run: `no finding`, or each finding with its evidence, as a
/// bug candidate or as permissible with the documented behaviour that explains it.
pub fn findings(oracles: &[OracleId], findings: &[Finding]) -> String {
    let mut out = String::new();
    if oracles.is_empty() {
        return out;
    }
    if findings.is_empty() {
        let names: Vec<&str> = oracles.iter().map(|o| o.name()).collect();
        let _ = writeln!(out, "   oracles ({}): no finding\n", names.join(", "));
        return out;
    }
    for f in findings {
        let verdict = match f.permissible.as_ref().map(|p| p.excuse) {
            None => "BUG CANDIDATE",
            Some(Excuse::Nondeterministic) => "NONDETERMINISTIC",
            Some(Excuse::Compatibility) => "COMPATIBILITY",
            Some(Excuse::Permissible) => "PERMISSIBLE",
            Some(Excuse::Allowed) => "ALLOWED",
        };
        let _ = writeln!(
            out,
            "   {verdict} ({} {}): {}",
            f.oracle, f.signature, f.summary
        );
        if let Some(p) = &f.permissible {
            let _ = writeln!(out, "        because {}: {}", p.behaviour, p.reason);
            let _ = writeln!(out, "        source: {}", p.source);
            for line in &p.evidence {
                let _ = writeln!(out, "        evidence: {line}");
            }
            for line in &p.ruled_out {
                let _ = writeln!(out, "        ruled out: {line}");
            }
        }
        for line in f.details.iter().flat_map(Detail::lines) {
            let _ = writeln!(out, "        {line}");
        }
    }
    out.push('\n');
    out
}

/// What the oracles could not judge: no verdict, never a bug candidate.
fn unjudged(unjudged: &[Unjudged]) -> String {
    let mut out = String::new();
    for u in unjudged {
        let _ = writeln!(out, "   COULD NOT JUDGE ({}): {}", u.oracle, u.reason);
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// One schedule row: position, session, statement (clipped to one line), what happened.
fn line(out: &mut String, label: &str, step: &txhunt_model::Step, what: String) {
    let _ = writeln!(
        out,
        "{label}  {:<7}  {:<SQL_WIDTH$}  {what}",
        step.session,
        clip(&one_line(&step.stmt.sql))
    );
}

/// A scenario that does not apply to the target.
fn not_applicable(heading: &Heading<'_>, reason: &str) -> String {
    format!("{}   n/a: {reason}\n\n", heading.line())
}

/// The closing line of `txhunt run`: runs, passed, failed, not applicable.
pub fn summary(reports: &[RunReport<'_>]) -> String {
    let runs = reports.iter().filter(|r| r.history.is_some()).count();
    let failed = reports.iter().filter(|r| !r.passed).count();
    let not_applicable = reports
        .iter()
        .filter(|r| r.not_applicable.is_some())
        .count();
    let mut line = format!(
        "{runs} runs: {} passed, {failed} with a failed expectation or a bug candidate",
        runs - failed,
    );
    if not_applicable > 0 {
        let _ = write!(line, "; {not_applicable} not applicable");
    }
    line
}

fn clip(sql: &str) -> String {
    if sql.chars().count() <= SQL_WIDTH {
        sql.to_string()
    } else {
        let head: String = sql.chars().take(SQL_WIDTH - 1).collect();
        format!("{head}…")
    }
}
