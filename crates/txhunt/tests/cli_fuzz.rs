//! `txhunt fuzz` as a user meets it: reproducible from its seed, with a JSON summary.

use std::process::{Command, Output};

fn txhunt(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_txhunt"))
        .args(args)
        .output()
        .expect("txhunt runs")
}

/// The JSON summary without its timings.
fn summary(out: &Output) -> serde_json::Value {
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON summary");
    let map = json.as_object_mut().expect("object");
    for timing in [
        "elapsed_seconds",
        "cases_per_second",
        "transactions_per_hour",
        "phases",
    ] {
        assert!(map.remove(timing).is_some(), "{timing} present");
    }
    json
}

/// Every file below `dir` but the findings store (its path relative to `dir`, its text),
/// sorted.
fn files(dir: &std::path::Path) -> Vec<(String, String)> {
    fn walk(root: &std::path::Path, dir: &std::path::Path, out: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy();
            if path.is_dir() {
                walk(root, &path, out);
            } else if !name.starts_with("findings.db") {
                // (The findings store, a database of its own, is compared by its tests.)
                let name = path.strip_prefix(root).unwrap().display().to_string();
                out.push((name, std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    let mut files = Vec::new();
    walk(dir, dir, &mut files);
    files.sort();
    files
}

#[test]
fn the_same_seed_gives_the_same_summary_and_the_same_saved_cases() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("A"), dir.path().join("B"));
    // Turso's MVCC mode: its snapshot-isolation runs give permissible WSS findings to save.
    let run = |out: &std::path::Path, workers: &str| {
        txhunt(&[
            "fuzz",
            "--target",
            "turso-mvcc",
            "--seed",
            "1",
            "--cases",
            "100",
            "--workers",
            workers,
            "--out",
            out.to_str().unwrap(),
            "--format",
            "json",
        ])
    };
    let first = summary(&run(&a, "1"));
    let second = summary(&run(&b, "2"));
    assert_eq!(first["cases"], 100);
    assert_eq!(first["seed"], 1);
    assert!(first["statements"]["select"].as_u64().unwrap() > 0);
    assert_eq!(first.get("workers"), Some(&serde_json::json!(1)));
    let mut second_same_workers = second.clone();
    second_same_workers["workers"] = serde_json::json!(1);
    assert_eq!(first, second_same_workers);
    let saved = files(&a);
    let permissible = saved
        .iter()
        .find(|(name, _)| name.starts_with("permissible/") && name.ends_with(".sql"))
        .unwrap_or_else(|| panic!("no permissible finding saved: {first}"));
    assert_eq!(saved, files(&b));
    // Each permissible finding is saved; the cases that gave them are counted apart (a case
    // can give several: here both WSS levels, transaction and statement), in all and per
    // level.
    let findings: Vec<&str> = (saved.iter())
        .filter_map(|(name, _)| name.strip_prefix("permissible/")?.strip_suffix(".sql"))
        .collect();
    let in_all = |key: &str| first[key].as_u64().unwrap();
    let per_level = |key: &str| -> u64 {
        (first["levels"].as_object().unwrap().values())
            .map(|level| level[key].as_u64().unwrap())
            .sum()
    };
    let permissible_findings: u64 = (first["permissible"].as_object().unwrap().values())
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(findings.len() as u64, permissible_findings, "{first}");
    let cases: std::collections::BTreeSet<&str> = findings
        .iter()
        .map(|f| f.split('-').next().unwrap())
        .collect();
    assert_eq!(in_all("permissible_cases"), cases.len() as u64, "{first}");
    assert_eq!(
        per_level("permissible_cases"),
        cases.len() as u64,
        "{first}"
    );
    assert_eq!(in_all("candidate_cases"), 0, "{first}");
    // Setup statements are counted apart too: every case creates a table.
    assert!(first["setup_statements"]["create-table"].as_u64().unwrap() >= 100);
    assert!(first["setup_statements"].get("select").is_none(), "{first}");
    // A saved finding replays as itself: on its target, judged by its oracles.
    let out = txhunt(&["run", a.join(&permissible.0).to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains(" · turso-mvcc · snapshot") && stdout.contains("PERMISSIBLE (wss "),
        "{stdout}"
    );
}

#[test]
fn fuzz_needs_a_budget_and_a_known_level() {
    let out = txhunt(&["fuzz", "--target", "sqlite"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--duration D"));
    let out = txhunt(&["fuzz", "--cases", "1", "--isolation", "repeatable-read"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("sqlite does not support repeatable-read")
    );
}

#[test]
fn two_workers_share_a_private_server_each_in_databases_of_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let out = txhunt(&[
        "fuzz",
        "--target",
        "mariadb",
        "--seed",
        "3",
        "--cases",
        "40",
        "--workers",
        "2",
        "--out",
        dir.path().to_str().unwrap(),
        "--format",
        "json",
    ]);
    let json = summary(&out);
    assert_eq!(json["cases"], 40);
    assert_eq!(json["workers"], 2);
    assert!(json["rejected_percent"].as_f64().unwrap() < 5.0, "{json}");
}

#[test]
fn ctrl_c_finishes_the_running_case_and_prints_the_summary() {
    let dir = tempfile::tempdir().unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_txhunt"))
        .args([
            "fuzz",
            "--target",
            "sqlite",
            "--duration",
            "60s",
            "--format",
            "json",
            "--out",
        ])
        .arg(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("starts");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    // SAFETY: sends SIGINT to the child we started.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
    let started = std::time::Instant::now();
    let out = child.wait_with_output().expect("exits");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(15),
        "stopped soon after Ctrl-C"
    );
    assert_eq!(
        out.status.code(),
        Some(130),
        "an interrupted command: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON summary");
    assert!(json["cases"].as_u64().unwrap() > 0, "{json}");
}

#[test]
fn two_targets_run_every_case_and_the_same_engine_agrees_with_itself() {
    let dir = tempfile::tempdir().unwrap();
    let out = txhunt(&[
        "fuzz",
        "--target",
        "sqlite",
        "--target",
        "sqlite",
        "--seed",
        "5",
        "--cases",
        "60",
        "--out",
        dir.path().to_str().unwrap(),
        "--format",
        "json",
    ]);
    let json = summary(&out);
    assert_eq!(out.status.code(), Some(0), "{json}");
    assert_eq!(json["cases"], 60);
    let target = json["target"].as_str().unwrap();
    assert!(
        target.starts_with("sqlite 3.") && target.contains(" vs sqlite 3."),
        "{target}"
    );
    assert!(json["findings"].as_object().unwrap().is_empty(), "{json}");

    let out = txhunt(&[
        "fuzz", "--target", "sqlite", "--target", "mariadb", "--cases", "1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("speak different SQL"));
}

#[test]
fn fuzz_reduces_each_finding_and_writes_the_reduction_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    // Turso's MVCC mode gives permissible WSS findings; reduced on request (bug candidates
    // always are).
    let fuzz = |out: &std::path::Path, reducing: &[&str]| {
        let common = [
            "fuzz",
            "--target",
            "turso-mvcc",
            "--seed",
            "1",
            "--cases",
            "40",
            "--format",
            "json",
            "--out",
            out.to_str().unwrap(),
        ];
        txhunt(&[&common[..], reducing].concat())
    };
    let out = fuzz(
        dir.path(),
        &["--reduce-permissible", "--reduce-budget", "30s"],
    );
    let first = summary(&out);
    let reduced = first["reductions"]["reduced"].as_u64().unwrap();
    assert!(reduced >= 1, "{first}");
    let saved = files(dir.path());
    let findings: Vec<&String> = (saved.iter().map(|(name, _)| name))
        .filter(|n| n.ends_with(".sql") && !n.ends_with(".reduced.sql"))
        .collect();
    let mut smaller = 0;
    for finding in findings {
        let stem = finding.trim_end_matches(".sql");
        let log = saved
            .iter()
            .find(|(n, _)| *n == format!("{stem}.reduced.json"));
        let (_, log) = log.unwrap_or_else(|| panic!("{finding} has no reduction log"));
        let log: serde_json::Value = serde_json::from_str(log).unwrap();
        if !log["flaky"].is_null() {
            continue;
        }
        let statements = &log["statements"];
        assert!(statements[1].as_u64() <= statements[0].as_u64(), "{log}");
        smaller += 1;
        // The reduced scenario replays as its finding.
        let path = dir.path().join(format!("{stem}.reduced.sql"));
        let run = txhunt(&["run", path.to_str().unwrap()]);
        let stdout = String::from_utf8_lossy(&run.stdout);
        assert!(stdout.contains("PERMISSIBLE (wss "), "{stdout}");
    }
    assert_eq!(smaller, reduced);

    // --no-reduce: nothing reduced.
    let none = tempfile::tempdir().unwrap();
    let out = fuzz(none.path(), &["--no-reduce"]);
    assert!(summary(&out).get("reductions").is_none());
    assert!(files(none.path())
        .iter()
        .all(|(name, _)| !name.contains(".reduced.")));
}

#[test]
fn guided_cases_realise_a_lost_update_that_read_committed_allows_and_repeatable_read_prevents() {
    let dir = tempfile::tempdir().unwrap();
    let run = |level: &str| {
        let out = txhunt(&[
            "fuzz",
            "--target",
            "postgres",
            "--isolation",
            level,
            "--pattern",
            "lost-update",
            "--seed",
            "3",
            "--cases",
            "12",
            "--out",
            dir.path().join(level).to_str().unwrap(),
            "--format",
            "json",
        ]);
        let json = summary(&out);
        json["levels"][level]["patterns"]["lost-update"].clone()
    };
    let rc = run("read-committed");
    let attempted = rc["attempted"].as_u64().unwrap();
    assert!(attempted >= 8, "most cases realise the pattern: {rc}");
    // PostgreSQL's READ COMMITTED lets T1 write over the version T2 committed after T1 read.
    assert!(rc["observed"].as_u64().unwrap() >= 1, "{rc}");
    // Its REPEATABLE READ refuses T1's write (first updater wins) every time the schedule
    // is the pattern's.
    let rr = run("repeatable-read");
    assert_eq!(rr["observed"], 0, "{rr}");
    assert!(rr["prevented"].as_u64().unwrap() >= 1, "{rr}");
    let unknown = txhunt(&["fuzz", "--cases", "1", "--pattern", "lost-updates"]);
    assert_eq!(unknown.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&unknown.stderr);
    assert!(
        stderr.contains("--pattern: no pattern named `lost-updates`; known: dirty-write"),
        "{stderr}"
    );
}

#[test]
fn alternative_settings_rotate_one_campaign_each_and_findings_replay_with_theirs() {
    let dir = tempfile::tempdir().unwrap();
    let out_flag = dir.path().display().to_string();
    let out = txhunt(&[
        "fuzz",
        "--target",
        "turso-mvcc?mvcc_gc_threshold=1|-1",
        "--seed",
        "1",
        "--cases",
        "60",
        "--out",
        &out_flag,
        "--format",
        "json",
    ]);
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON summaries");
    let runs = json.as_array().expect("one summary per combination");
    let described: Vec<(&str, u64, u64)> = runs
        .iter()
        .map(|s| {
            (
                s["target"].as_str().unwrap(),
                s["seed"].as_u64().unwrap(),
                s["cases"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        described,
        [
            ("turso-mvcc?mvcc_gc_threshold=1", 1, 30),
            ("turso-mvcc?mvcc_gc_threshold=-1", 2, 30)
        ]
    );
    // Saved findings (write skew is permissible and saved) name the settings they ran with.
    let saved = files(dir.path());
    let headers: Vec<&str> = saved
        .iter()
        .filter(|(name, _)| name.ends_with(".sql"))
        .filter_map(|(_, text)| text.lines().find(|l| l.starts_with("-- targets:")))
        .collect();
    assert!(!headers.is_empty(), "{saved:?}");
    assert!(
        headers
            .iter()
            .all(|h| h.contains("turso-mvcc?mvcc_gc_threshold=")),
        "{headers:?}"
    );
}
