//! `txhunt reduce` as a user meets it: a saved finding's scenario in, the reduced scenario and
//! its log beside it.

mod common;

use common::{succeeded, txhunt};

/// The reduction log `name` under `dir`.
fn log_at(dir: &std::path::Path, name: &str) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap()
}

#[test]
fn reduce_writes_the_reduced_scenario_and_its_log_beside_the_finding() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("finding.sql");
    std::fs::write(
        &file,
        "-- finding: wss tx-wss:final-state\n\
         -- targets: sqlite\n\
         -- oracles: explicit,wss\n\
         /* init */ CREATE TABLE t(v REAL);\n\
         /* init */ CREATE TABLE pad(k INT);\n\
         /* t1 */ BEGIN;\n\
         /* t1 */ INSERT INTO pad VALUES (1);\n\
         /* t1 */ COMMIT;\n\
         /* t2 */ INSERT INTO t SELECT random();\n",
    )
    .unwrap();
    let stdout = succeeded(&["reduce", file.to_str().unwrap()]);
    assert!(
        stdout.contains("wss tx-wss:final-state kept with 6 → 2 statements, 2 → 1 transactions"),
        "{stdout}"
    );
    let reduced = std::fs::read_to_string(dir.path().join("finding.reduced.sql")).unwrap();
    let case = txhunt_model::scenario::parse(&reduced, "reduced").unwrap();
    assert_eq!(case.init.len() + case.steps.len(), 2, "{reduced}");
    let log = log_at(dir.path(), "finding.reduced.json");
    assert_eq!(log["statements"], serde_json::json!([6, 2]));
    assert!(!log["log"].as_array().unwrap().is_empty());

    // A scenario that does not give the finding is refused.
    std::fs::write(
        &file,
        "-- finding: wss tx-wss:final-state\n/* t1 */ SELECT 1;\n",
    )
    .unwrap();
    let out = txhunt(&["reduce", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("does not give the finding wss tx-wss:final-state in 3 runs"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn reduce_takes_several_findings_and_ends_with_a_table_and_the_median() {
    let dir = tempfile::tempdir().unwrap();
    let finding = |pad: usize| {
        let mut text = "-- finding: wss tx-wss:final-state\n\
             -- targets: sqlite\n\
             /* init */ CREATE TABLE t(v REAL);\n"
            .to_string();
        for k in 0..pad {
            text.push_str(&format!("/* t1 */ SELECT {k};\n"));
        }
        text + "/* t2 */ INSERT INTO t SELECT random();\n"
    };
    let (a, b) = (dir.path().join("a.sql"), dir.path().join("b.sql"));
    std::fs::write(&a, finding(2)).unwrap();
    std::fs::write(&b, finding(6)).unwrap();
    let out = txhunt(&["reduce", a.to_str().unwrap(), b.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    let row = |name: &str| stdout.lines().find(|l| l.starts_with(name)).unwrap_or("");
    assert!(row("a.sql ").contains("4 → 2"), "{stdout}");
    assert!(row("b.sql ").contains("8 → 2"), "{stdout}");
    // Ratios 2 and 4: the median is 3.
    assert!(
        stdout.contains("2 reduced: median 3.0× fewer statements"),
        "{stdout}"
    );

    // A scenario that cannot be reduced fails the command; the others are still reduced.
    std::fs::write(&a, "/* t1 */ SELECT 1;\n").unwrap();
    let out = txhunt(&["reduce", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("a.sql: ") && stderr.contains("1 of 2 scenarios"),
        "{stderr}"
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("b.sql "));
}

#[test]
fn reduce_judges_hangs_at_the_statement_timeout_it_is_given() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hang.sql");
    std::fs::write(
        &file,
        "-- finding: explicit hang\n\
         -- targets: sqlite\n\
         -- oracles: explicit\n\
         /* init */ CREATE TABLE pad(k INT);\n\
         /* t1 */ INSERT INTO pad VALUES (1);\n\
         /* t2 */ WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000) SELECT count(*) FROM c;\n",
    )
    .unwrap();
    let stdout = succeeded(&[
        "reduce",
        "--statement-timeout",
        "1s",
        file.to_str().unwrap(),
    ]);
    assert!(
        stdout.contains("explicit hang kept with 3 → 1 statements"),
        "{stdout}"
    );
    let log = log_at(dir.path(), "hang.reduced.json");
    let tries = log["log"].as_array().unwrap();
    assert!(!tries.is_empty(), "{log}");
    // Every smaller case was judged at the given timeout (1 s, below the 2 s a hang's tries
    // otherwise get).
    assert!(tries.iter().all(|t| t["timeout_ms"] == 1000), "{log}");
}
