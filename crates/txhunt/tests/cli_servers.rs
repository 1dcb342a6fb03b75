//! `txhunt run --target mariadb|postgres`, `txhunt server`, `txhunt shell` and `txhunt bench
//! block` as a user meets them.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn txhunt(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_txhunt"))
        .args(args)
        .output()
        .expect("txhunt runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn examples(dir: &str) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(dir);
    let mut files: Vec<String> = std::fs::read_dir(&root)
        .expect("examples exist")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "sql"))
        .map(|p| p.display().to_string())
        .collect();
    files.sort();
    files
}

#[test]
fn run_on_private_servers_reports_where_each_dbms_blocks() {
    for dbms in ["mariadb", "postgres"] {
        let mut args = vec!["run", "--target", dbms];
        let files = examples(dbms);
        args.extend(files.iter().map(String::as_str));
        let out = txhunt(&args);
        let stdout = text(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{dbms}: {stdout}{}",
            text(&out.stderr)
        );
        assert!(
            stdout.contains("  blocked\n") && stdout.contains("resumed: "),
            "{stdout}"
        );
    }
}

#[test]
fn server_prints_its_url_serves_and_cleans_up_on_ctrl_c_or_sigterm() {
    for signal in [libc::SIGINT, libc::SIGTERM] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_txhunt"))
            .args(["server", "postgres"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("starts");
        let mut url = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut url)
            .expect("prints the URL");
        let url = url.trim().to_string();
        assert!(url.starts_with("postgres://postgres@127.0.0.1:"), "{url}");
        let files = examples("postgres");
        let out = txhunt(&["run", "--target", &url, &files[0]]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
        // SAFETY: sends a signal to the child we started.
        unsafe {
            libc::kill(child.id() as libc::pid_t, signal);
        }
        let status = child.wait().expect("exits");
        assert!(status.success(), "signal {signal}: {status}");
        assert!(
            txhunt(&["run", "--target", &url, &files[0]]).status.code() == Some(2),
            "signal {signal}: the server is gone"
        );
    }
}

#[test]
fn shell_sends_lines_to_sessions_and_reports_waits_and_resumptions() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_txhunt"))
        .args(["shell", "2", "mariadb"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(
            b"1> CREATE TABLE t(k INT PRIMARY KEY, v INT);\n1> INSERT INTO t VALUES (1, 1);\n\
              1> BEGIN;\n1> UPDATE t SET v = 2 WHERE k = 1;\n2> UPDATE t\n   SET v = 3 WHERE k = 1;\n\
              1> COMMIT;\n9> SELECT 1;\n",
        )
        .unwrap();
    let out = child.wait_with_output().expect("exits");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    let lines: Vec<&str> = stdout.lines().collect();
    let waiting = lines.iter().position(|l| *l == "[2] waiting on a lock …");
    let resumed = lines.iter().position(|l| *l == "[2] resumed: affected 1");
    assert!(waiting.is_some() && resumed > waiting, "{stdout}");
    assert!(
        stdout.contains("no session 9; sessions are 1 to 2"),
        "{stdout}"
    );
}

#[test]
fn bench_block_compares_the_probe_with_the_timeout() {
    let out = txhunt(&[
        "bench",
        "block",
        "--target",
        "sqlite",
        "--timeout",
        "300ms",
        "--repeat",
        "1",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let cases = report["cases"].as_array().expect("cases");
    assert!(!cases.is_empty());
    for case in cases {
        assert!(case["blocked_statements"].as_u64().unwrap() >= 1, "{case}");
        assert!(case["timeout_ms"].as_f64().unwrap() >= 300.0, "{case}");
        assert!(case["ratio"].as_f64().unwrap() > 1.0, "{case}");
    }
}

#[test]
fn bench_instrument_runs_the_same_cases_plain_and_instrumented_on_postgres() {
    let out = txhunt(&[
        "bench",
        "instrument",
        "--target",
        "postgres",
        "--cases",
        "6",
        "--repeat",
        "1",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(report["cases"], 6);
    let ms = |key: &str| report[key].as_f64().unwrap();
    assert!(
        ms("plain_ms") > 0.0 && ms("instrumented_ms") > 0.0,
        "{report}"
    );
    assert!((ms("ratio") - ms("instrumented_ms") / ms("plain_ms")).abs() < 1e-9);
    assert!(
        report["tracked_statements"].as_u64().unwrap() > 0,
        "{report}"
    );
}

#[test]
fn bench_fuzz_shares_a_campaigns_time_among_its_phases_on_mariadb() {
    let out_dir = tempfile::tempdir().expect("tempdir");
    let out = txhunt(&[
        "bench",
        "fuzz",
        "--target",
        "mariadb",
        "--cases",
        "8",
        "--oracle",
        "explicit,sdg",
        "--out",
        out_dir.path().to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(report["cases"], 8);
    let phases = report["phases"].as_array().expect("phases");
    let seconds = |name: &str| {
        (phases.iter())
            .find(|p| p["phase"] == name)
            .and_then(|p| p["seconds"].as_f64())
            .unwrap_or_else(|| panic!("no phase {name}: {report}"))
    };
    for phase in [
        "create database",
        "connect",
        "setup",
        "execute",
        "final state",
        "teardown",
    ] {
        assert!(seconds(phase) > 0.0, "{phase}: {report}");
    }
    // The SDG oracle's sequential runs are timed inside it.
    assert!(seconds("oracle sdg/execute") > 0.0, "{report}");
    let percent: f64 = phases.iter().map(|p| p["percent"].as_f64().unwrap()).sum();
    assert!((percent - 100.0).abs() < 1e-6, "{report}");
    // Longest first.
    let shares: Vec<f64> = phases
        .iter()
        .map(|p| p["seconds"].as_f64().unwrap())
        .collect();
    assert!(shares.windows(2).all(|w| w[0] >= w[1]), "{report}");
}

#[test]
fn bench_protocol_compares_the_protocol_with_raw_replay_on_sqlite() {
    let out = txhunt(&[
        "bench", "protocol", "--target", "sqlite", "--cases", "10", "--repeat", "1", "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(report["cases"], 10);
    let ms = |key: &str| report[key].as_f64().unwrap();
    assert!(ms("raw_ms") > 0.0 && ms("protocol_ms") > 0.0, "{report}");
    assert!((ms("ratio") - ms("protocol_ms") / ms("raw_ms")).abs() < 1e-9);
    assert!(report["statements"].as_u64().unwrap() >= 10, "{report}");
}

#[test]
fn bench_guide_measures_random_and_guided_cases_to_each_allowed_class() {
    let out_dir = tempfile::tempdir().expect("tempdir");
    let out = txhunt(&[
        "bench",
        "guide",
        "--target",
        "sqlite",
        "--isolation",
        "read-uncommitted",
        "--seeds",
        "1",
        "--budget",
        "3s",
        "--out",
        out_dir.path().to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let classes = report["classes"].as_array().expect("classes");
    let class = |name: &str| {
        (classes.iter())
            .find(|c| c["class"] == name)
            .unwrap_or_else(|| panic!("no {name}: {report}"))
    };
    // SQLite's READ UNCOMMITTED (shared cache) lets dirty and intermediate reads through;
    // its SERIALIZABLE, not asked here, allows nothing.
    for name in ["G1a", "G1b", "G-single"] {
        let guided = &class(name)["guided"];
        assert_eq!(guided["observed"], 1, "{name}: {report}");
        assert!(guided["median_cases"].as_f64().unwrap() >= 1.0, "{report}");
    }
    assert!(
        classes.iter().all(|c| c["level"] == "read-uncommitted"),
        "{report}"
    );
}

#[test]
fn wss_verdicts_are_permissible_with_their_reason_or_bug_candidates_with_exit_1() {
    let files = examples("wss");
    let semi = files
        .iter()
        .find(|f| f.ends_with("semi-consistent-read.sql"))
        .expect("scenario");
    let out = txhunt(&["run", "--target", "mariadb", "--oracle", "wss", semi]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("PERMISSIBLE (wss tx-wss:final-state)")
            && stdout.contains("because semi-consistent-read: ")
            && stdout.contains("source: MySQL 8.0 Reference Manual §17.7.2.1")
            && stdout.contains("serial order (tx-wss, FCRFS): t1 → t2"),
        "{stdout}"
    );
    assert!(!stdout.contains("BUG CANDIDATE"), "{stdout}");

    let tmp = tempfile::tempdir().unwrap();
    let random = tmp.path().join("random.sql");
    std::fs::write(
        &random,
        "/* init */ CREATE TABLE t(v REAL);\n/* t1 */ INSERT INTO t SELECT random();\n",
    )
    .unwrap();
    let random = random.display().to_string();
    let out = txhunt(&["run", "--oracle", "wss", &random]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("BUG CANDIDATE (wss tx-wss:final-state)")
            && stdout.contains("not permissible: sqlite documents no behaviour"),
        "{stdout}"
    );
    let out = txhunt(&["run", "--oracle", "nope", semi]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--oracle: unknown oracle 'nope'; accepted: explicit, wss"));
}

#[test]
fn two_postgres_major_versions_run_the_examples_alike() {
    let other = std::env::var("TXHUNT_OTHER_POSTGRES_BIN").expect(
        "TXHUNT_OTHER_POSTGRES_BIN: run scripts/test, which fetches another PostgreSQL major version (scripts/fetch-postgres)",
    );
    let second = format!("postgres@{other}");
    let mut args = vec!["run", "--target", "postgres", "--target", &second];
    let files = examples("postgres");
    args.extend(files.iter().map(String::as_str));
    let out = txhunt(&args);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    let compared = stdout.matches("oracles (differential): no finding").count();
    assert!(compared >= files.len(), "{stdout}");
    assert_eq!(
        stdout.matches(" · postgres 15.").count(),
        compared,
        "{stdout}"
    );
    assert_eq!(
        stdout.matches(" · postgres 18.").count(),
        compared,
        "{stdout}"
    );

    let out = txhunt(&[
        "run", "--target", "sqlite", "--target", "postgres", &files[0],
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("sqlite and postgres speak different SQL"),
        "{}",
        text(&out.stderr)
    );
}
