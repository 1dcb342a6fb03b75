//! The hand-minimized differential scenarios under `tests/differential/` (and, with the
//! `duckdb` feature, `tests/duckdb/differential/`): each names the
//! targets it compares (`-- pair: sqlite turso`; `postgres@other` is the other PostgreSQL
//! major version scripts/test fetches) and how txhunt must judge the pair
//! (`-- differential: none`, or `-- differential: CATEGORY VERDICT` where VERDICT is a
//! compatibility behaviour, `nondeterministic` or `candidate`). Each is replayed with
//! `txhunt run --target A --target B --oracle explicit,wss` and the judgement compared.

use std::path::{Path, PathBuf};
use std::process::Command;

fn scenarios(dir: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests")
        .join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "sql"))
        .collect();
    files.sort();
    files
}

/// The value of the `-- KEY: value` header line of `text`.
fn header<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let prefix = format!("-- {key}:");
    text.lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .map(str::trim)
}

fn target(name: &str) -> String {
    match name {
        "postgres@other" => {
            let bin = std::env::var("TXHUNT_OTHER_POSTGRES_BIN").expect(
                "TXHUNT_OTHER_POSTGRES_BIN: run scripts/test, which fetches another PostgreSQL major version (scripts/fetch-postgres)",
            );
            format!("postgres@{bin}")
        }
        other => other.to_string(),
    }
}

/// The differential judgements of one replay, as `category verdict` (e.g. `blocking
/// concurrency-control`), in report order.
fn judgements(file: &Path, targets: &[String]) -> Vec<String> {
    let mut args = vec!["run".to_string()];
    for t in targets {
        args.extend(["--target".to_string(), t.clone()]);
    }
    args.extend(["--oracle", "explicit,wss", "--format", "json"].map(String::from));
    args.push(file.display().to_string());
    let out = Command::new(env!("CARGO_BIN_EXE_txhunt"))
        .args(&args)
        .output()
        .expect("txhunt runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}: {stdout}{}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let reports: serde_json::Value = serde_json::from_str(&stdout).expect("JSON report");
    let reports = reports.as_array().expect("a list of runs");
    assert_eq!(reports.len(), targets.len(), "{}", file.display());
    reports
        .iter()
        .flat_map(|r| r["differential"].as_array().cloned().unwrap_or_default())
        .map(|f| {
            let verdict = match &f["permissible"] {
                serde_json::Value::Null => "candidate",
                p => p["behaviour"].as_str().expect("behaviour"),
            };
            format!("{} {verdict}", f["signature"].as_str().expect("signature"))
        })
        .collect()
}

#[test]
fn every_minimized_discrepancy_is_judged_as_its_scenario_says() {
    judged_as_their_scenarios_say("differential");
}

/// DuckDB (cargo feature `duckdb`) against SQLite: DuckDB runs SERIALIZABLE cases at its one
/// level, snapshot isolation.
#[cfg(feature = "duckdb")]
#[test]
fn duckdb_discrepancies_with_sqlite_are_judged_as_their_scenarios_say() {
    judged_as_their_scenarios_say("duckdb/differential");
}

/// Replays every scenario of `tests/DIR` on its pair and checks the judgement its header gives.
fn judged_as_their_scenarios_say(dir: &str) {
    let files = scenarios(dir);
    assert!(files.len() >= 2, "{files:?}");
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable");
        let name = file.display();
        let targets: Vec<String> = header(&text, "pair")
            .unwrap_or_else(|| panic!("{name}: no `-- pair:` line"))
            .split_whitespace()
            .map(target)
            .collect();
        let expected = header(&text, "differential")
            .unwrap_or_else(|| panic!("{name}: no `-- differential:` line"));
        let found = judgements(&file, &targets);
        if expected == "none" {
            assert!(found.is_empty(), "{name}: {found:?}");
        } else {
            assert!(
                found.first().is_some_and(|f| f == expected),
                "{name}: expected {expected}, found {found:?}"
            );
            let verdict = expected.split_once(' ').map_or("", |(_, v)| v);
            assert!(
                found.iter().all(|f| f.ends_with(verdict)),
                "{name}: every discrepancy of the pair is judged {verdict}: {found:?}"
            );
        }
    }
}
