//! DT²'s compatibility issues that involve MariaDB (tests/dt2-compatibility/, see its
//! README): replayed on a private MariaDB server, none may be flagged as a bug, and each
//! shows MariaDB's side of its root cause.

use std::path::Path;
use std::process::Command;

/// The value of the `-- KEY: value` header line of `text`.
fn header<'a>(text: &'a str, key: &str) -> &'a str {
    let prefix = format!("-- {key}:");
    text.lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .map(str::trim)
        .unwrap_or_else(|| panic!("no `-- {key}:` line in\n{text}"))
}

#[test]
fn dt2_compatibility_issues_are_not_flagged_on_mariadb_and_show_their_cause() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/dt2-compatibility");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/dt2-compatibility exists")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "sql"))
        .map(|p| p.display().to_string())
        .collect();
    files.sort();
    assert_eq!(files.len(), 49, "{files:?}");
    let mut args = vec!["run", "--target", "mariadb", "--oracle", "explicit,wss"];
    args.extend(["--format", "json"]);
    args.extend(files.iter().map(String::as_str));
    let out = Command::new(env!("CARGO_BIN_EXE_txhunt"))
        .args(&args)
        .output()
        .expect("txhunt runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "a DT² compatibility issue was flagged or failed its expectation: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let reports: serde_json::Value = serde_json::from_str(&stdout).expect("JSON report");
    let reports = reports.as_array().expect("a list of runs");
    assert_eq!(reports.len(), files.len());
    let mut causes = std::collections::BTreeMap::<String, usize>::new();
    for report in reports {
        let file = report["file"].as_str().expect("file");
        let text = std::fs::read_to_string(file).expect("readable");
        let (pair, kind, cause) = (
            header(&text, "dbms"),
            header(&text, "title"),
            header(&text, "root-cause"),
        );
        let name = format!("{file} ({pair}: {kind})");
        assert_eq!(report["passed"], true, "{name}");
        let findings = report["findings"].as_array().expect("findings");
        assert!(
            findings.iter().all(|f| !f["permissible"].is_null()),
            "{name}: {findings:?}"
        );
        let steps = report["history"]["steps"].as_array().expect("steps");
        let blocked = steps.iter().any(|s| s["blocked"] == true);
        let deadlock = steps.iter().any(|s| s["outcome"]["class"] == "deadlock");
        match cause {
            "Inconsistent lock mechanism" if kind.starts_with("Inconsistent blocked") => {
                assert!(blocked, "{name}: MariaDB makes a statement wait")
            }
            "Inconsistent lock mechanism" if pair == "MySQL & MariaDB" => {
                assert!(!deadlock, "{name}: MariaDB (≥ 10.7.3) breaks no deadlock")
            }
            "Inconsistent lock mechanism" => assert!(blocked, "{name}: a lock wait"),
            "Inconsistent aborted transaction" => {
                assert!(deadlock, "{name}: MariaDB aborts a transaction")
            }
            "Inconsistent snapshot creation" => {
                assert!(!blocked, "{name}");
                let held = report["checks"].as_array().expect("checks").len();
                assert_eq!(held, 1, "{name}: the read's expectation was checked");
            }
            other => panic!("{name}: unknown root cause {other}"),
        }
        *causes.entry(cause.to_string()).or_default() += 1;
    }
    assert_eq!(
        causes
            .iter()
            .map(|(c, n)| (c.as_str(), *n))
            .collect::<Vec<_>>(),
        [
            ("Inconsistent aborted transaction", 2),
            ("Inconsistent lock mechanism", 44),
            ("Inconsistent snapshot creation", 3),
        ]
    );
}
