//! A finding as a Markdown bug report a DBMS developer can take as it is: what, where, the
//! minimized scenario and how to run it, expected vs actual with the oracle's explanation, the
//! observed schedule, and the pictures (the schedule's and, for graph oracles, the cycle's).

use super::text;
use crate::store::SavedFinding;
use std::fmt::Write;
use txhunt_store::{FindingInfo, OccurrenceInfo};

/// The pictures a report links to, as file names beside it.
#[derive(Debug, Clone, Default)]
pub struct Pictures {
    /// The observed schedule ([`super::schedule_svg`]).
    pub schedule: Option<String>,
    /// The dependency cycle of an Adya phenomenon ([`super::svg`]).
    pub cycle: Option<String>,
}

/// The report of `finding`, shown through its `occurrence` (read back as `saved`).
pub fn report(
    finding: &FindingInfo,
    occurrence: &OccurrenceInfo,
    saved: &SavedFinding,
    pictures: &Pictures,
) -> String {
    let level = saved.history.isolation;
    let dbms = format!("{} {}", finding.family, finding.version);
    let mut md = String::new();
    let _ = writeln!(
        md,
        "# {dbms}: {} ({} `{}`)\n",
        finding.title, finding.oracle, finding.signature
    );
    let verdict = match finding.verdict.strip_prefix("permissible: ") {
        None => "bug candidate: no documented behaviour of the DBMS explains it".to_string(),
        Some(behaviour) => format!("permissible: explained by the documented `{behaviour}`"),
    };
    let _ = writeln!(md, "| | |\n|---|---|");
    let _ = writeln!(md, "| DBMS | {dbms} |");
    let _ = writeln!(md, "| txhunt target | `{}` |", finding.target);
    let _ = writeln!(md, "| Isolation level | {level} |");
    let _ = writeln!(
        md,
        "| Oracle | {} (`{}`) |",
        finding.oracle, finding.signature
    );
    let _ = writeln!(md, "| Verdict | {verdict} |");
    let _ = writeln!(
        md,
        "| Found | {}; {} occurrence{}; first in campaign {}, case {} (seed {}) |\n",
        finding.first_seen,
        finding.occurrences,
        if finding.occurrences == 1 { "" } else { "s" },
        occurrence.campaign,
        occurrence.case_index,
        occurrence.case_seed
    );

    md.push_str("## How to reproduce\n\n");
    let (scenario, statements) = match &finding.reduced {
        Some(reduced) => {
            let _ = writeln!(
                md,
                "Minimized by txhunt's reducer from {} to {} statements.\n",
                occurrence.statements, finding.statements
            );
            (reduced.as_str(), finding.statements)
        }
        None => (occurrence.scenario.as_str(), occurrence.statements),
    };
    let _ = writeln!(
        md,
        "{statements} statements. Each `/* tN */` tag is a session of its own (a connection at \
         {level}); `/* init */` statements run first. Submit the statements in file order; a \
         statement that waits for a lock stays waiting while the next ones are submitted.\n"
    );
    let _ = writeln!(md, "```sql\n{}```\n", with_newline(scenario));
    let _ = writeln!(
        md,
        "Replay with txhunt: `txhunt run finding.sql --target {} --isolation {}`.\n",
        saved
            .targets
            .first()
            .map_or(finding.target.as_str(), String::as_str),
        level.name()
    );

    md.push_str("## Expected vs actual\n\n");
    let _ = writeln!(
        md,
        "```text\n{}```\n",
        with_newline(&text::findings(
            &[saved.finding.oracle],
            std::slice::from_ref(&saved.finding)
        ))
    );

    md.push_str("## Observed run\n\n");
    let observed = text::observed(
        &occurrence.path,
        &finding.version,
        Some(level),
        &saved.case,
        &saved.history,
    );
    let _ = writeln!(md, "```text\n{}```\n", with_newline(&observed));
    if let Some(file) = &pictures.schedule {
        let _ = writeln!(md, "![The observed schedule]({file})\n");
    }
    if let Some(file) = &pictures.cycle {
        let _ = writeln!(md, "![The dependency cycle]({file})\n");
    }
    md
}

/// `text` ending in exactly one newline.
fn with_newline(text: &str) -> String {
    format!("{}\n", text.trim_end())
}
