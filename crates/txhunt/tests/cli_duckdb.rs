//! `txhunt` on DuckDB (cargo feature `duckdb`): its scenarios under `tests/duckdb/`, a fuzz
//! campaign on it alone and one against SQLite.
#![cfg(feature = "duckdb")]

use std::path::Path;
use std::process::{Command, Output};

fn txhunt(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_txhunt"))
        .args(args)
        .output()
        .expect("txhunt runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn duckdb_keeps_snapshot_isolation_but_misses_an_update_delete_conflict() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/duckdb");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/duckdb exists")
        .map(|e| e.expect("entry").path().display().to_string())
        .filter(|p| p.ends_with(".sql"))
        .collect();
    files.sort();
    let mut args = vec!["run", "--target", "duckdb", "--oracle", "explicit,wss"];
    args.extend(files.iter().map(String::as_str));
    let out = txhunt(&args);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(files.len() >= 4, "{files:?}");
    let passed = files.len() - 1;
    assert!(
        stdout.contains(&format!(
            "{} runs: {passed} passed, 1 with a failed expectation",
            files.len()
        )),
        "{stdout}"
    );
    // DuckDB issue #17223, still in the version the `duckdb` crate links: the DELETE is not
    // refused and both transactions commit.
    let bug = stdout
        .split("== ")
        .find(|run| run.contains("update-delete-no-conflict.sql"))
        .expect("the update/delete scenario ran");
    assert!(
        bug.contains("← FAILED")
            && bug.contains("DELETE FROM t WHERE k = 1")
            && bug.contains("affected 1"),
        "{bug}"
    );
    assert!(
        stdout.contains("because write-skew: DuckDB is snapshot isolation")
            && stdout
                .contains("error serialization: TransactionContext Error: Conflict on update!"),
        "{stdout}"
    );
}

#[test]
fn fuzz_runs_on_duckdb_and_against_sqlite_at_serializable() {
    let out_dir = tempfile::tempdir().unwrap();
    let out_flag = out_dir.path().display().to_string();
    for targets in [&["duckdb"][..], &["sqlite", "duckdb"][..]] {
        let mut args = vec!["fuzz", "--cases", "30", "--seed", "3", "--format", "json"];
        for t in targets {
            args.extend(["--target", t]);
        }
        if targets.len() > 1 {
            // DuckDB runs SQLite's SERIALIZABLE cases at its snapshot isolation.
            args.extend(["--isolation", "serializable"]);
        }
        args.extend(["--out", &out_flag]);
        let out = txhunt(&args);
        let stdout = text(&out.stdout);
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{stdout}{}",
            text(&out.stderr)
        );
        let summary: serde_json::Value = serde_json::from_str(&stdout).expect("a JSON summary");
        assert_eq!(summary["cases"], 30, "{stdout}");
        assert!(
            summary["target"].as_str().unwrap().contains("duckdb"),
            "{stdout}"
        );
    }
}
