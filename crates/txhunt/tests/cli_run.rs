//! `txhunt run` as a user meets it: exit codes, error messages, output.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn txhunt(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_txhunt"))
        .args(args)
        .output()
        .expect("txhunt runs")
}

fn examples() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("examples/ exists")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "sql"))
        .collect();
    files.sort();
    files.iter().map(|p| p.display().to_string()).collect()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn write(dir: &tempfile::TempDir, name: &str, body: &str) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, body).expect("write scenario");
    path.display().to_string()
}

#[test]
fn examples_meet_their_expectations_and_show_blocking() {
    let files = examples();
    assert!(files.len() >= 6, "at least six examples: {files:?}");
    let mut args = vec!["run"];
    args.extend(files.iter().map(String::as_str));
    let out = txhunt(&args);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("  blocked\n"), "{stdout}");
    assert!(stdout.contains("resumed: affected 1"), "{stdout}");
    assert!(stdout.contains("final: t = [(1, 11), (2, 40)]"), "{stdout}");
    assert!(
        stdout.contains("7 runs: 7 passed, 0 with a failed expectation or a bug candidate"),
        "{stdout}"
    );
}

#[test]
fn isolation_all_runs_every_level_and_json_carries_histories() {
    let files = examples();
    let dirty = files
        .iter()
        .find(|f| f.contains("dirty-read"))
        .expect("dirty-read example");
    let out = txhunt(&["run", dirty, "--isolation", "all", "--format", "json"]);
    // At serializable the dirty read does not happen, so its expectation fails: exit 1.
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    let runs = json.as_array().expect("array of runs");
    let levels: Vec<&str> = runs
        .iter()
        .map(|r| r["isolation"].as_str().unwrap())
        .collect();
    assert_eq!(levels, ["read-uncommitted", "serializable"]);
    assert_eq!(runs[0]["passed"], true);
    assert_eq!(runs[1]["passed"], false);
    assert!(runs[1]["history"]["schedule"].as_array().is_some());
    assert!(runs[1]["case"]["steps"].as_array().is_some());
}

#[test]
fn a_malformed_scenario_names_file_line_and_column_and_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        &dir,
        "bad.sql",
        "/* t1 */ BEGIN;\n/* t1 */ SELECT 1;  -- expect: rows [(1]\n",
    );
    let out = txhunt(&["run", &file]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(&format!("{file}:2:40: expected ',' or ')'")),
        "{stderr}"
    );
}

#[test]
fn a_failed_expectation_says_which_line_and_what_was_observed_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        &dir,
        "wrong.sql",
        "/* init */ CREATE TABLE t(k INT);\n/* t1 */ INSERT INTO t VALUES (1);  -- expect: affected 2\n-- expect final: t = [(5)]\n",
    );
    let out = txhunt(&["run", &file]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("FAIL line 2: t1: INSERT INTO t VALUES (1)"),
        "{stdout}"
    );
    assert!(stdout.contains("expected affected 2"), "{stdout}");
    assert!(stdout.contains("observed affected 1"), "{stdout}");
    assert!(stdout.contains("FAIL line 3: final t"), "{stdout}");
    assert!(stdout.contains("observed [(1)]"), "{stdout}");
}

#[test]
fn bad_flags_exit_2_and_name_what_is_accepted() {
    let files = examples();
    let out = txhunt(&["run", &files[0], "--isolation", "snapshot-ish"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(
            "--isolation: unknown isolation level 'snapshot-ish'; accepted: read-uncommitted"
        ),
        "{stderr}"
    );

    let out = txhunt(&["run", &files[0], "--isolation", "repeatable-read"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(
            "sqlite does not support repeatable-read; it supports: read-uncommitted, serializable"
        ),
        "{stderr}"
    );

    let out = txhunt(&["run", &files[0], "--target", "oracle"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("unknown target 'oracle'"));

    let out = txhunt(&["run", "/nonexistent/x.sql"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("/nonexistent/x.sql: cannot read"));
}

#[test]
fn a_scenario_for_levels_the_target_lacks_is_reported_not_applicable() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        &dir,
        "rr.sql",
        "-- isolation: repeatable-read\n/* t1 */ SELECT 1;\n",
    );
    let out = txhunt(&["run", &file]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(
            "n/a: written for repeatable-read; sqlite supports read-uncommitted, serializable"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("1 not applicable"), "{stdout}");
}

#[test]
fn the_timeout_detector_gives_the_same_schedule() {
    let files = examples();
    let first = &files[0];
    let exact = txhunt(&["run", first]);
    let timeout = txhunt(&["run", first, "--block-detect", "timeout:200ms"]);
    assert_eq!(exact.status.code(), Some(0));
    assert_eq!(text(&exact.stdout), text(&timeout.stdout));
}

#[test]
fn the_wss_oracle_finds_nothing_in_the_examples() {
    let mut args = vec!["run", "--oracle", "wss,explicit"];
    let files = examples();
    args.extend(files.iter().map(String::as_str));
    let out = txhunt(&args);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert_eq!(
        stdout
            .matches("oracles (wss, explicit): no finding")
            .count(),
        7,
        "{stdout}"
    );
}

#[test]
fn turso_waits_in_normal_mode_and_refuses_at_once_in_mvcc_mode() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/turso");
    for (target, file) in [
        ("turso", "writer-waits.sql"),
        ("turso-mvcc", "mvcc-write-conflict.sql"),
    ] {
        let path = dir.join(file).display().to_string();
        let out = txhunt(&["run", "--target", target, &path]);
        let stdout = text(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{target}: {stdout}{}",
            text(&out.stderr)
        );
        assert!(stdout.contains("1 runs: 1 passed"), "{stdout}");
        assert!(!stdout.contains("__turso_internal"), "{stdout}");
    }
}

#[test]
fn turso_mvcc_keeps_snapshot_isolation_and_its_write_skew_is_permissible() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/turso-mvcc");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/turso-mvcc exists")
        .map(|e| e.expect("entry").path().display().to_string())
        .filter(|p| p.ends_with(".sql"))
        .collect();
    files.sort();
    let mut args = vec!["run", "--target", "turso-mvcc", "--oracle", "explicit,wss"];
    args.extend(files.iter().map(String::as_str));
    let out = txhunt(&args);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    let runs = files.len();
    assert!(runs >= 3, "{files:?}");
    assert!(
        stdout.contains(&format!("{runs} runs: {runs} passed")),
        "{stdout}"
    );
    assert!(
        stdout.contains("PERMISSIBLE (wss tx-wss:final-state)")
            && stdout.contains("because write-skew: BEGIN CONCURRENT is snapshot isolation")
            && stdout.contains("(taken at its BEGIN)"),
        "{stdout}"
    );
    assert!(!stdout.contains("BUG CANDIDATE"), "{stdout}");
}

#[test]
fn history_writes_each_runs_read_write_history_and_names_a_bad_format() {
    let out_dir = tempfile::tempdir().unwrap();
    let scenario = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/instrumented/lost-update.sql")
        .display()
        .to_string();
    let out_flag = out_dir.path().display().to_string();
    let args = [
        "run",
        "--history",
        "json",
        "--out",
        &out_flag,
        "--isolation",
        "all",
        &scenario,
    ];
    let out = txhunt(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut written: Vec<String> = std::fs::read_dir(out_dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    assert_eq!(
        written,
        [
            "lost-update.sqlite.read-uncommitted.history.json",
            "lost-update.sqlite.serializable.history.json"
        ]
    );
    let history: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.path().join(&written[1])).unwrap())
            .unwrap();
    let t1_update = &history["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["step"] == 4)
        .unwrap()["writes"][0];
    assert_eq!(t1_update["kind"], "update", "{history:#}");
    assert_eq!(t1_update["overwrote"], serde_json::json!({"init": 1}));

    let bad = txhunt(&["run", "--history", "xml", &scenario]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        text(&bad.stderr)
            .contains("unknown history format 'xml'; accepted: json, elle, plume, dbcop"),
        "{}",
        text(&bad.stderr)
    );
}

#[test]
fn mariadb_snapshot_isolation_refuses_lost_updates_but_not_through_a_secondary_index_nor_at_read_uncommitted(
) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/mariadb-snapshot-isolation");
    let file = |name: &str| dir.join(name).display().to_string();
    let files = [
        file("lost-update.sql"),
        file("write-skew.sql"),
        file("secondary-index-delete.sql"),
        file("read-uncommitted-update-skips-uncommitted-delete.sql"),
    ];
    // The files name their target (`targets: mariadb?innodb_snapshot_isolation=ON`).
    let mut args = vec!["run", "--oracle", "explicit,wss,dsg"];
    args.extend(files.iter().map(String::as_str));
    let out = txhunt(&args);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("4 runs: 2 passed"), "{stdout}");
    assert!(
        stdout.contains("ALLOWED (dsg dsg:G2-item)")
            && stdout.contains("with innodb_snapshot_isolation=ON"),
        "{stdout}"
    );
    let bug = stdout
        .split("== ")
        .find(|run| run.contains("secondary-index-delete.sql"))
        .expect("the secondary-index run");
    assert!(
        bug.contains("BUG CANDIDATE (dsg dsg:G-single)")
            && bug.contains("expected error serialization"),
        "{bug}"
    );
    // At READ UNCOMMITTED the UPDATE skips the row an unfinished DELETE locked instead of
    // waiting for it, and its change is lost when the DELETE's transaction rolls back.
    let lost = stdout
        .split("== ")
        .find(|run| run.contains("read-uncommitted-update-skips-uncommitted-delete.sql"))
        .expect("the read-uncommitted run");
    assert!(
        lost.contains("expected blocked then affected 1") && lost.contains("observed affected 0"),
        "{lost}"
    );
}
