//! `txhunt corpus run` on the repository's corpus and a private MariaDB: the table, valid
//! JUnit with a test case per scenario × level, and every `reproduces` verdict replayed by
//! `txhunt run` as a failed expectation.

use std::path::Path;
use std::process::{Command, Output};

fn txhunt(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_txhunt"))
        .args(args)
        .output()
        .expect("txhunt runs")
}

#[test]
fn the_corpus_on_mariadb_gives_a_table_junit_and_replayable_reproductions() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let corpus = corpus.display().to_string();
    let dir = tempfile::tempdir().expect("temp dir");
    let junit = dir.path().join("out.xml");
    let junit_arg = junit.display().to_string();
    let args = [
        "corpus", "run", &corpus, "--target", "mariadb", "--junit", &junit_arg,
    ];
    let out = txhunt(&args);
    let table = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{table}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        table.contains("| bug | DBMS reported on | read-uncommitted | read-committed | repeatable-read | serializable |"),
        "{table}"
    );
    let xml = std::fs::read_to_string(&junit).expect("JUnit written");
    let cases = xml.matches("<testcase ").count();
    let failures = xml.matches("<failure ").count();
    let skipped = xml.matches("<skipped ").count();
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"));
    assert!(xml.trim_end().ends_with("</testsuites>"));
    assert!(
        xml.contains(&format!("tests=\"{cases}\" failures=\"{failures}\"")),
        "{xml}"
    );
    assert!(xml.contains(&format!("skipped=\"{skipped}\"")), "{xml}");
    assert!(cases >= 4 * 120, "{cases} test cases");
    assert!(failures > 0 && failures < cases, "{failures} of {cases}");
    // Every reproduced bug shows its failed expectation (or its explicit finding: a hang) when
    // replayed on its own.
    let json = txhunt(&[
        "corpus", "run", &corpus, "--target", "mariadb", "--format", "json",
    ]);
    let cells: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON cells");
    let reproduced: Vec<&serde_json::Value> = cells
        .as_array()
        .expect("cells")
        .iter()
        .filter(|c| c["verdict"] == "reproduces")
        .collect();
    assert_eq!(reproduced.len(), failures);
    let mut by_level: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
    for cell in reproduced {
        let level = cell["level"].as_str().expect("level");
        by_level
            .entry(level)
            .or_default()
            .push(cell["file"].as_str().expect("file"));
    }
    for (level, files) in by_level {
        let mut args = vec!["run", "--target", "mariadb", "--isolation", level];
        args.extend(["--format", "json"]);
        args.extend(&files);
        let out = txhunt(&args);
        assert_eq!(out.status.code(), Some(1), "at {level}");
        let runs: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON runs");
        for run in runs.as_array().expect("runs") {
            let failed = run["checks"]
                .as_array()
                .expect("checks")
                .iter()
                .any(|c| c["passed"] == false);
            // A hang reproduces a PoC without an expectation (its `oracles: explicit`).
            let explicit = (run["findings"].as_array().expect("findings").iter())
                .any(|f| f["oracle"] == "explicit");
            assert!(
                failed || explicit,
                "{} at {level}: no failed expectation or explicit finding",
                run["file"]
            );
        }
    }
}
