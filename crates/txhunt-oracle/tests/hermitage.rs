//! Hermitage's isolation tests (`tests/hermitage/`, after github.com/ept/hermitage) run
//! instrumented on every target and level, each run judged by the Adya dependency-graph oracle:
//! the phenomena it finds must be exactly the expected ones (`tests/hermitage/README.md` says
//! where each expectation comes from).
//!
//! One test function per target, which starts the target once and runs every scenario at
//! every level of [`COLUMNS`] it has; every mismatch is collected and reported together, with
//! the run's schedule and the anomalies edge by edge.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use txhunt_db::open_target;
use txhunt_exec::{Executor, TargetRunner};
use txhunt_model::adya::Phenomenon;
use txhunt_model::{scenario, Event, History, Isolation, TestCase};
use txhunt_oracle::dsg::{analyse, Analysis, Anomaly};

/// The table's columns: target and level.
const COLUMNS: [(&str, Isolation); 10] = [
    ("postgres", Isolation::ReadCommitted),
    ("postgres", Isolation::RepeatableRead),
    ("postgres", Isolation::Serializable),
    ("mariadb", Isolation::ReadUncommitted),
    ("mariadb", Isolation::ReadCommitted),
    ("mariadb", Isolation::RepeatableRead),
    ("mariadb", Isolation::Serializable),
    ("sqlite", Isolation::Serializable),
    ("turso", Isolation::Serializable),
    ("turso-mvcc", Isolation::Snapshot),
];

/// Per scenario (`tests/hermitage/<name>.sql`), per column of [`COLUMNS`], the phenomena the
/// oracle must find: `""` for none (the DBMS prevented it), otherwise a comma list of classes,
/// each optionally qualified (`G-single:lost-update`: the anomaly of that class has that
/// refinement; `G-single:predicate` / `G-single:item`: its cycle has / has no predicate
/// anti-dependency).
///
/// The expectations are Adya's classes of what each DBMS really does with these texts
/// (`tests/hermitage/README.md` explains every cell that is not simply Hermitage's verdict, and
/// which DSG gaps the cells that failed while it was built showed).
#[rustfmt::skip]
const EXPECTED: &[(&str, [&str; 10])] = &[
    //                            PostgreSQL 15: RC, RR, SER            MariaDB 10.11: RU, RC, RR, SER                                    SQLite  Turso  Turso MVCC (SI)
    ("g0",                    ["", "", "",                               "", "", "", "",                                                  "", "", ""]),
    ("g1a",                   ["", "", "",                               "G1a", "", "", "",                                               "", "", ""]),
    ("g1b",                   ["G-single", "", "",                       "G1b", "G-single", "", "",                                       "", "", ""]),
    ("g1c",                   ["G2-item:write-skew", "G2-item:write-skew", "",
                               "G1c", "G2-item:write-skew", "G2-item:write-skew", "",                                                    "", "", "G2-item:write-skew"]),
    ("otv",                   ["", "", "",                               "G-single:read-skew", "", "", "",                                "", "", ""]),
    ("pmp",                   ["G-single:predicate", "", "",             "G-single:predicate", "G-single:predicate", "", "",              "", "", ""]),
    ("pmp-write",             ["G-single:predicate", "", "",             "", "", "", "",                                                  "", "", ""]),
    ("p4",                    ["G-single:lost-update", "", "",           "G-single:lost-update", "G-single:lost-update", "G-single:lost-update", "",
                                                                                                                                          "", "", ""]),
    ("g-single",              ["G-single:read-skew", "", "",             "G-single:read-skew", "G-single:read-skew", "", "",              "", "", ""]),
    ("g-single-dependencies", ["G-single:item", "", "",                  "G-single:item", "G-single:item", "", "",                        "", "", ""]),
    ("g-single-write-1",      ["G-single", "", "",                       "G-single", "G-single", "G-single", "",                          "", "", ""]),
    ("g-single-write-2",      ["G-single", "", "",                       "G-single", "G-single", "G-single", "",                          "", "", ""]),
    ("g2-item",               ["G2-item:write-skew", "G2-item:write-skew", "",
                               "G2-item:write-skew", "G2-item:write-skew", "G2-item:write-skew", "",                                     "", "", "G2-item:write-skew"]),
    ("g2",                    ["G2:write-skew", "G2:write-skew", "",     "G2:write-skew", "G2:write-skew", "G2:write-skew", "",           "", "", "G2:write-skew"]),
    ("g2-two-edges",          ["G2-item", "G2-item", "",                 "G2-item", "G2-item", "G2-item", "",                             "", "", "G2-item"]),
];

fn scenario_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/hermitage")
}

fn scenario_named(name: &str) -> TestCase {
    let path = scenario_dir().join(format!("{name}.sql"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    scenario::parse(&text, &format!("{name}.sql"))
        .unwrap_or_else(|e| panic!("parsing {}: {e}", path.display()))
}

/// One expected phenomenon: its class and, optionally, what must hold of its anomaly.
struct Expected {
    class: Phenomenon,
    qualifier: Option<&'static str>,
}

fn parse_cell(cell: &'static str) -> Vec<Expected> {
    cell.split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(|item| {
            let (class, qualifier) = match item.split_once(':') {
                Some((c, q)) => (c, Some(q)),
                None => (item, None),
            };
            Expected {
                class: class
                    .parse()
                    .unwrap_or_else(|e| panic!("expected cell '{cell}': {e}")),
                qualifier,
            }
        })
        .collect()
}

/// Why `anomaly` does not have `qualifier`, if it does not.
fn qualifier_mismatch(anomaly: &Anomaly, qualifier: &str) -> Option<String> {
    let holds = match qualifier {
        "predicate" => anomaly.predicate,
        "item" => !anomaly.predicate,
        refinement => anomaly.refinement.map(|r| r.name()) == Some(refinement),
    };
    (!holds).then(|| {
        format!(
            "{} is not {qualifier} (refinement {:?}, predicate anti-dependency: {})",
            anomaly.class,
            anomaly.refinement.map(|r| r.name()),
            anomaly.predicate
        )
    })
}

/// The found classes as a cell of the table: `G-single:lost-update`, `G2:predicate`, …
fn found_cell(analysis: &Analysis) -> String {
    let cells: Vec<String> = analysis
        .anomalies
        .iter()
        .map(|a| {
            let mut s = a.class.to_string();
            if let Some(r) = a.refinement {
                write!(s, ":{}", r.name()).unwrap();
            }
            if a.predicate {
                s.push_str(":predicate");
            }
            s
        })
        .collect();
    if cells.is_empty() {
        "-".into()
    } else {
        cells.join(",")
    }
}

/// The run as it happened: every event of the schedule with its statement and outcome, then
/// the transactions' fates.
fn schedule(case: &TestCase, history: &History) -> String {
    let mut out = String::new();
    for event in &history.schedule {
        match event {
            Event::Blocked { step } => {
                let s = &case.steps[*step];
                writeln!(
                    out,
                    "    {:>2} {}: {}  -- blocked",
                    step + 1,
                    s.session,
                    s.stmt.sql
                )
                .unwrap();
            }
            Event::Completed { step } => {
                let s = &case.steps[*step];
                let record = &history.steps[*step];
                let resumed = if record.blocked { " (resumed)" } else { "" };
                writeln!(
                    out,
                    "    {:>2} {}: {}  -- {}{resumed}",
                    step + 1,
                    s.session,
                    s.stmt.sql,
                    record.outcome
                )
                .unwrap();
            }
            Event::Rollback { txn, outcome } => {
                let label = history.txns.get(*txn).map_or("?", |t| t.label.as_str());
                writeln!(
                    out,
                    "       {label}: ROLLBACK (sent by txhunt)  -- {outcome}"
                )
                .unwrap();
            }
        }
    }
    for t in &history.txns {
        writeln!(out, "    {}: {:?}", t.label, t.status).unwrap();
    }
    out
}

/// Runs every scenario on `target_name` at each of its levels and checks the DSG's verdicts.
fn hermitage_on(target_name: &str) {
    let columns: Vec<(usize, Isolation)> = COLUMNS
        .iter()
        .enumerate()
        .filter(|(_, (t, _))| *t == target_name)
        .map(|(i, (_, level))| (i, *level))
        .collect();
    assert!(!columns.is_empty(), "no column for {target_name}");
    let target = open_target(target_name, None).expect("the target opens");
    let executor = Executor {
        instrument: true,
        ..Executor::default()
    };
    let mut table = String::new();
    let mut failures = Vec::new();
    for (name, cells) in EXPECTED {
        let case = scenario_named(name);
        for &(column, level) in &columns {
            let cell = cells[column];
            let history = match executor.execute(target.as_ref(), &case, level) {
                Ok(h) => h,
                Err(e) => {
                    failures.push(format!(
                        "{name} on {target_name} at {level}: the run failed: {e}"
                    ));
                    continue;
                }
            };
            let runner = TargetRunner {
                executor,
                target: target.as_ref(),
            };
            let analysis = analyse(&case, &history, &runner);
            let found = found_cell(&analysis);
            let shown = if cell.is_empty() { "-" } else { cell };
            writeln!(
                table,
                "  {name:<22} {:<16} expected {shown:<42} found {found}",
                level.name()
            )
            .unwrap();

            let expected = parse_cell(cell);
            let want: BTreeSet<Phenomenon> = expected.iter().map(|e| e.class).collect();
            let got: BTreeSet<Phenomenon> = analysis.anomalies.iter().map(|a| a.class).collect();
            let mut problems = Vec::new();
            if want != got {
                problems.push(format!("expected {want:?}, found {got:?}"));
            }
            for e in &expected {
                let Some(q) = e.qualifier else { continue };
                if let Some(a) = analysis.anomalies.iter().find(|a| a.class == e.class) {
                    problems.extend(qualifier_mismatch(a, q));
                }
            }
            if !analysis.unknown.is_empty() {
                problems.push(format!(
                    "cycle search ran out of time on {:?}",
                    analysis.unknown
                ));
            }
            if std::env::var_os("HERMITAGE_SCHEDULES").is_some() {
                eprintln!(
                    "{name} on {target_name} at {level}:\n{}",
                    schedule(&case, &history)
                );
            }
            if problems.is_empty() {
                continue;
            }
            let mut report = format!(
                "{name} on {target_name} at {level}: {}\n  schedule:\n{}",
                problems.join("; "),
                schedule(&case, &history)
            );
            for a in &analysis.anomalies {
                writeln!(report, "  {}:", a.class).unwrap();
                for line in a.explain(&analysis.txns) {
                    writeln!(report, "    {line}").unwrap();
                }
            }
            failures.push(report);
        }
    }
    eprintln!("Hermitage on {target_name}:\n{table}");
    assert!(
        failures.is_empty(),
        "{} of Hermitage's cells on {target_name} differ:\n\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_scenario_has_a_row_and_every_row_a_scenario() {
    let mut files: Vec<String> = std::fs::read_dir(scenario_dir())
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            name.strip_suffix(".sql").map(str::to_string)
        })
        .collect();
    files.sort();
    let mut rows: Vec<String> = EXPECTED.iter().map(|(n, _)| n.to_string()).collect();
    rows.sort();
    assert_eq!(files, rows);
    for (name, cells) in EXPECTED {
        scenario_named(name);
        for cell in cells {
            parse_cell(cell);
        }
    }
}

#[test]
fn hermitage_on_postgres() {
    hermitage_on("postgres");
}

#[test]
fn hermitage_on_mariadb() {
    hermitage_on("mariadb");
}

#[test]
fn hermitage_on_sqlite() {
    hermitage_on("sqlite");
}

#[test]
fn hermitage_on_turso() {
    hermitage_on("turso");
}

#[test]
fn hermitage_on_turso_mvcc() {
    hermitage_on("turso-mvcc");
}
