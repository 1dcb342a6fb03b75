//! The corpus run's reports: the Markdown table (bug × isolation level, as in the ReplBug
//! thesis' isolation-correlation table) and JUnit XML (one test case per scenario × level).

use super::verdict::{Cell, Verdict};
use std::collections::BTreeMap;
use std::fmt::Write;
use txhunt_model::Isolation;

/// The Markdown table of `cells` for `target` over `levels`: one row per scenario that applies
/// at some level, then the counts and, per cell that is not `fixed`/`reproduces`, why.
pub fn markdown(target: &str, levels: &[Isolation], cells: &[Cell]) -> String {
    let mut rows: BTreeMap<&str, Vec<&Cell>> = BTreeMap::new();
    for cell in cells {
        rows.entry(cell.id.as_str()).or_default().push(cell);
    }
    let other_dbms = |cells: &[&Cell]| cells.iter().all(|c| for_other_dbms(c));
    let mut out = String::new();
    let _ = writeln!(out, "# Known-bug corpus on {target}\n");
    let header: Vec<&str> = levels.iter().map(|l| l.name()).collect();
    let _ = writeln!(out, "| bug | DBMS reported on | {} |", header.join(" | "));
    let _ = writeln!(out, "|---|---|{}", "---|".repeat(levels.len()));
    let mut skipped = 0;
    for (id, row) in &rows {
        if other_dbms(row) {
            skipped += 1;
            continue;
        }
        let verdicts: Vec<&str> = levels
            .iter()
            .map(|level| {
                row.iter()
                    .find(|c| c.level == *level)
                    .map_or("", |c| c.verdict.name())
            })
            .collect();
        let _ = writeln!(
            out,
            "| {id} | {} | {} |",
            row[0].dbms.replace('|', "/"),
            verdicts.join(" | ")
        );
    }
    let _ = writeln!(
        out,
        "\n{}; {skipped} scenarios are PoCs for other DBMSs.",
        counts(cells)
    );
    let reproduced: Vec<String> = rows
        .iter()
        .filter_map(|(id, row)| {
            let levels: Vec<&str> = row
                .iter()
                .filter(|c| c.verdict == Verdict::Reproduces)
                .map(|c| c.level.name())
                .collect();
            (!levels.is_empty()).then(|| format!("- {id} ({})", levels.join(", ")))
        })
        .collect();
    if !reproduced.is_empty() {
        let _ = writeln!(out, "\nReproduced:\n{}", reproduced.join("\n"));
    }
    let notes: Vec<String> = cells
        .iter()
        .filter(|c| matches!(c.verdict, Verdict::NotApplicable | Verdict::Error))
        .filter(|c| !for_other_dbms(c))
        .map(|c| {
            format!(
                "- {} at {}: {}: {}",
                c.id,
                c.level,
                c.verdict.name(),
                c.reason
            )
        })
        .collect();
    if !notes.is_empty() {
        let _ = writeln!(out, "\nNot run or not judged:\n{}", notes.join("\n"));
    }
    out
}

/// JUnit XML: a test suite per target (`runs`: each target's label and cells), a test case
/// per scenario × level (class name: the scenario's file, name: `id [level]`); `reproduces` is
/// a failure, `n/a` skipped, `error` an error.
pub fn junit(runs: &[(String, Vec<Cell>)]) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str("<testsuites name=\"txhunt corpus\">\n");
    for (target, cells) in runs {
        suite(&mut out, target, cells);
    }
    out.push_str("</testsuites>\n");
    out
}

/// One target's test suite.
fn suite(out: &mut String, target: &str, cells: &[Cell]) {
    let count = |v: Verdict| cells.iter().filter(|c| c.verdict == v).count();
    let _ = writeln!(
        out,
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\">",
        escape(target),
        cells.len(),
        count(Verdict::Reproduces),
        count(Verdict::Error),
        count(Verdict::NotApplicable)
    );
    for cell in cells {
        let _ = write!(
            out,
            "    <testcase classname=\"{}\" name=\"{} [{}]\"",
            escape(&cell.file),
            escape(&cell.id),
            cell.level
        );
        let reason = escape(&cell.reason);
        match cell.verdict {
            Verdict::Fixed | Verdict::NoAnomaly => out.push_str("/>\n"),
            Verdict::Reproduces => {
                let _ = writeln!(
                    out,
                    ">\n      <failure message=\"the bug reproduces\">{reason}</failure>\n    </testcase>"
                );
            }
            Verdict::NotApplicable => {
                let _ = writeln!(
                    out,
                    ">\n      <skipped message=\"{reason}\"/>\n    </testcase>"
                );
            }
            Verdict::Error => {
                let _ = writeln!(
                    out,
                    ">\n      <error message=\"txhunt could not run it\">{reason}</error>\n    </testcase>"
                );
            }
        }
    }
    out.push_str("  </testsuite>\n");
}

/// The bug × version table of several targets (ReplBug's affected versions): one row per
/// scenario that applies to some target, one column per target (`runs`: label and cells), a
/// cell summing up its levels: `reproduces` (with the levels, where not every level it ran at
/// reproduced), else `error`, `fixed`, `no-anomaly` or `n/a`; then each target's counts.
pub fn versions_markdown(runs: &[(String, Vec<Cell>)]) -> String {
    let mut rows: BTreeMap<&str, (&str, Vec<Vec<&Cell>>)> = BTreeMap::new();
    for (k, (_, cells)) in runs.iter().enumerate() {
        for cell in cells {
            let row = rows
                .entry(cell.id.as_str())
                .or_insert_with(|| (cell.dbms.as_str(), vec![Vec::new(); runs.len()]));
            row.1[k].push(cell);
        }
    }
    let mut out = String::from("# Known-bug corpus across versions\n\n");
    let labels: Vec<&str> = runs.iter().map(|(label, _)| label.as_str()).collect();
    let _ = writeln!(out, "| bug | DBMS reported on | {} |", labels.join(" | "));
    let _ = writeln!(out, "|---|---|{}", "---|".repeat(runs.len()));
    for (id, (dbms, per_target)) in &rows {
        if per_target.iter().flatten().all(|c| for_other_dbms(c)) {
            continue;
        }
        let summaries: Vec<String> = per_target.iter().map(|cells| summary(cells)).collect();
        let _ = writeln!(
            out,
            "| {id} | {} | {} |",
            dbms.replace('|', "/"),
            summaries.join(" | ")
        );
    }
    out.push('\n');
    for (label, cells) in runs {
        let _ = writeln!(out, "- {label}: {}", counts(cells));
    }
    out
}

/// How many cells there are and how many of each verdict.
fn counts(cells: &[Cell]) -> String {
    let count = |v: Verdict| cells.iter().filter(|c| c.verdict == v).count();
    format!(
        "{} scenarios × levels: {} reproduce, {} fixed, {} no-anomaly, {} n/a, {} error",
        cells.len(),
        count(Verdict::Reproduces),
        count(Verdict::Fixed),
        count(Verdict::NoAnomaly),
        count(Verdict::NotApplicable),
        count(Verdict::Error),
    )
}

/// Whether `cell` was not run because its scenario is a PoC for another DBMS.
fn for_other_dbms(cell: &Cell) -> bool {
    cell.verdict == Verdict::NotApplicable && cell.reason.starts_with("a PoC for")
}

/// One target's verdict on one scenario, over its levels.
fn summary(cells: &[&Cell]) -> String {
    let with = |v: Verdict| cells.iter().filter(|c| c.verdict == v).collect::<Vec<_>>();
    let ran = cells
        .iter()
        .filter(|c| c.verdict != Verdict::NotApplicable)
        .count();
    let reproduced = with(Verdict::Reproduces);
    if !reproduced.is_empty() {
        if reproduced.len() == ran {
            return "reproduces".into();
        }
        let levels: Vec<&str> = reproduced.iter().map(|c| c.level.name()).collect();
        return format!("reproduces ({})", levels.join(", "));
    }
    [
        Verdict::Error,
        Verdict::Fixed,
        Verdict::NoAnomaly,
        Verdict::NotApplicable,
    ]
    .into_iter()
    .find(|&v| !with(v).is_empty())
    .map_or("", Verdict::name)
    .to_string()
}

/// `text` with XML's special characters escaped (and control characters other than tab and
/// newline, which XML 1.0 does not allow, dropped).
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' => out.push(c),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(id: &str, level: Isolation, verdict: Verdict, reason: &str) -> Cell {
        Cell {
            id: id.into(),
            file: format!("corpus/{id}.sql"),
            dbms: "MariaDB 10.6".into(),
            level,
            verdict,
            reason: reason.into(),
        }
    }

    #[test]
    fn the_table_has_a_row_per_bug_and_junit_a_case_per_cell() {
        let (rc, rr) = (Isolation::ReadCommitted, Isolation::RepeatableRead);
        let cells = [
            cell("MDEV-1", rc, Verdict::Fixed, "every expectation held"),
            cell(
                "MDEV-1",
                rr,
                Verdict::Reproduces,
                "line 9: t1: expected <1>, observed \"2\"",
            ),
            cell(
                "TIDB-2",
                rc,
                Verdict::NotApplicable,
                "a PoC for TiDB, not for mariadb",
            ),
            cell(
                "TIDB-2",
                rr,
                Verdict::NotApplicable,
                "a PoC for TiDB, not for mariadb",
            ),
        ];
        let table = markdown("mariadb 10.11", &[rc, rr], &cells);
        assert!(
            table.contains("| MDEV-1 | MariaDB 10.6 | fixed | reproduces |"),
            "{table}"
        );
        assert!(!table.contains("| TIDB-2"), "{table}");
        assert!(
            table.contains(
                "1 reproduce, 1 fixed, 0 no-anomaly, 2 n/a, 0 error; 1 scenarios are PoCs for other DBMSs"
            ),
            "{table}"
        );
        assert!(table.contains("- MDEV-1 (repeatable-read)"), "{table}");
        let xml = junit(&[("mariadb 10.11".into(), cells.to_vec())]);
        assert_eq!(xml.matches("<testcase ").count(), 4);
        assert!(
            xml.contains("tests=\"4\" failures=\"1\" errors=\"0\" skipped=\"2\""),
            "{xml}"
        );
        assert!(
            xml.contains("expected &lt;1&gt;, observed &quot;2&quot;"),
            "{xml}"
        );
        assert!(xml.contains("name=\"MDEV-1 [repeatable-read]\""), "{xml}");
    }

    #[test]
    fn the_versions_table_has_a_column_per_target() {
        let (rc, rr) = (Isolation::ReadCommitted, Isolation::RepeatableRead);
        let old = vec![
            cell("PG-1", rc, Verdict::Reproduces, "line 9"),
            cell("PG-1", rr, Verdict::Fixed, "every expectation held"),
            cell("PG-2", rc, Verdict::Reproduces, "line 3"),
            cell(
                "PG-2",
                rr,
                Verdict::NotApplicable,
                "the header names read-committed",
            ),
        ];
        let new = vec![
            cell("PG-1", rc, Verdict::Fixed, "every expectation held"),
            cell("PG-1", rr, Verdict::Fixed, "every expectation held"),
            cell("PG-2", rc, Verdict::Error, "server gone"),
            cell(
                "PG-2",
                rr,
                Verdict::NotApplicable,
                "the header names read-committed",
            ),
        ];
        let table = versions_markdown(&[
            ("postgres 12.22".into(), old),
            ("postgres 18.4".into(), new),
        ]);
        assert!(
            table.contains("| bug | DBMS reported on | postgres 12.22 | postgres 18.4 |"),
            "{table}"
        );
        assert!(
            table.contains("| PG-1 | MariaDB 10.6 | reproduces (read-committed) | fixed |"),
            "{table}"
        );
        assert!(
            table.contains("| PG-2 | MariaDB 10.6 | reproduces | error |"),
            "{table}"
        );
        assert!(
            table.contains("- postgres 18.4: 4 scenarios × levels: 0 reproduce, 2 fixed"),
            "{table}"
        );
    }
}
