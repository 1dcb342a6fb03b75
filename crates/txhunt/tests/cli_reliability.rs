//! Faults injected on purpose, as a user meets them: txhunt killed outright, Ctrl-C in a
//! terminal, a private server that dies under a campaign, an unusable `--out`. Each test runs
//! txhunt with a temp dir of its own (`TMPDIR`), so the servers and directories it looks for
//! are its own.

use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A temp dir the testbed's servers (which run as `nobody` under root) can enter.
fn private_tmp() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("temp dir");
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    tmp
}

/// `txhunt ARGS` with `tmp` as its temp dir, in a process group of its own (as a terminal's
/// foreground job is), its stderr in `tmp/stderr`.
fn spawn(tmp: &Path, args: &[&str]) -> Child {
    let stderr = std::fs::File::create(tmp.join("stderr")).unwrap();
    Command::new(env!("CARGO_BIN_EXE_txhunt"))
        .args(args)
        .env("TMPDIR", tmp)
        .process_group(0)
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("txhunt starts")
}

/// `txhunt fuzz` on `dbms` for `duration`, its JSON summary on stdout, its findings under
/// `tmp/out`. At SERIALIZABLE: these tests are about infrastructure failures, which must never
/// become bug candidates, and at that level neither server has a known real one a random
/// campaign could meet (PostgreSQL's REPEATABLE READ does:
/// tests/wss/postgres-rr-insert-after-concurrent-delete.sql, which made one run fail).
fn spawn_fuzz(tmp: &Path, dbms: &str, duration: &str) -> Child {
    let out = tmp.join("out");
    let args = [
        "fuzz",
        "--target",
        dbms,
        "--isolation",
        "serializable",
        "--duration",
        duration,
        "--format",
        "json",
        "--out",
    ];
    let mut all: Vec<&str> = args.to_vec();
    all.push(out.to_str().expect("a UTF-8 temp dir"));
    spawn(tmp, &all)
}

fn run(tmp: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_txhunt"))
        .args(args)
        .env("TMPDIR", tmp)
        .output()
        .expect("txhunt runs")
}

/// The testbed server directories of `dbms` in `tmp`.
fn server_dirs(tmp: &Path, dbms: &str) -> Vec<PathBuf> {
    let prefix = format!("txhunt_{dbms}_");
    std::fs::read_dir(tmp)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(&prefix))
        })
        .collect()
}

/// Whether process `pid` runs (exists and is no zombie).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            let state = stat.rsplit(')').next()?.trim_start().chars().next()?;
            Some(state != 'Z' && state != 'X')
        })
        .unwrap_or(false)
}

/// Waits (at most 120 s) for a running `dbms` server in `tmp` other than `not`: its
/// directory and pid.
fn wait_for_server(tmp: &Path, dbms: &str, not: Option<u32>) -> (PathBuf, u32) {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        for dir in server_dirs(tmp, dbms) {
            let pid = std::fs::read_to_string(dir.join("owner"))
                .ok()
                .and_then(|t| t.trim().parse::<u32>().ok());
            if let Some(pid) = pid.filter(|&p| Some(p) != not && alive(p)) {
                return (dir, pid);
            }
        }
        assert!(
            Instant::now() < deadline,
            "no {dbms} server started in {}: {}",
            tmp.display(),
            std::fs::read_to_string(tmp.join("stderr")).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Waits at most `limit` for `done`.
fn within(limit: Duration, done: impl Fn() -> bool) -> bool {
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    done()
}

fn signal(pid: i64, sig: libc::c_int) {
    // SAFETY: kill(2) on a process (or, negative, a process group) this test started.
    unsafe {
        libc::kill(pid as libc::pid_t, sig);
    }
}

/// The pid of the watchdog guarding the server in `dir`.
fn watchdog_of(dir: &Path) -> u32 {
    let dir = dir.display().to_string();
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .find(|pid| {
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let cmdline = String::from_utf8_lossy(&cmdline);
            cmdline.contains("txhunt-watchdog") && cmdline.contains(&dir)
        })
        .expect("the server has a watchdog")
}

fn summary(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "a JSON summary ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    })
}

#[test]
fn a_private_server_is_gone_within_5_s_of_a_sigkill_of_txhunt() {
    for dbms in ["mariadb", "postgres"] {
        let tmp = private_tmp();
        let mut fuzz = spawn_fuzz(tmp.path(), dbms, "300s");
        let (dir, server) = wait_for_server(tmp.path(), dbms, None);
        std::thread::sleep(Duration::from_secs(1));
        signal(fuzz.id() as i64, libc::SIGKILL);
        fuzz.wait().unwrap();
        assert!(
            within(Duration::from_secs(5), || !alive(server) && !dir.exists()),
            "{dbms}: server {server} alive: {}, {} exists: {}",
            alive(server),
            dir.display(),
            dir.exists()
        );
    }
}

#[test]
fn the_next_txhunt_reaps_a_server_whose_owner_and_watchdog_were_killed() {
    let tmp = private_tmp();
    let mut fuzz = spawn_fuzz(tmp.path(), "postgres", "300s");
    let (dir, server) = wait_for_server(tmp.path(), "postgres", None);
    signal(watchdog_of(&dir) as i64, libc::SIGKILL);
    signal(fuzz.id() as i64, libc::SIGKILL);
    fuzz.wait().unwrap();
    std::thread::sleep(Duration::from_secs(1));
    assert!(
        alive(server) && dir.exists(),
        "the premise: nothing cleaned up"
    );

    // Any txhunt start, here one that needs no server at all.
    let scenario =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/01-writer-blocks-writer.sql");
    let ran = run(tmp.path(), &["run", scenario.to_str().unwrap()]);
    assert_eq!(ran.status.code(), Some(0), "{ran:?}");
    assert!(
        within(Duration::from_secs(5), || !alive(server)) && !dir.exists(),
        "the stale server {server} and {} are gone",
        dir.display()
    );
}

#[test]
fn ctrl_c_in_a_terminal_ends_fuzz_with_its_summary_exit_130_and_no_bug_candidate() {
    let tmp = private_tmp();
    let fuzz = spawn_fuzz(tmp.path(), "postgres", "300s");
    let (dir, server) = wait_for_server(tmp.path(), "postgres", None);
    std::thread::sleep(Duration::from_secs(3));
    // A terminal's Ctrl-C: SIGINT to the foreground process group.
    signal(-(fuzz.id() as i64), libc::SIGINT);
    let ran = fuzz.wait_with_output().unwrap();
    let stderr = std::fs::read_to_string(tmp.path().join("stderr")).unwrap();
    assert_eq!(ran.status.code(), Some(130), "{stderr}");
    let summary = summary(&ran);
    assert!(summary["cases"].as_u64().unwrap() > 0, "{summary}");
    assert_eq!(summary["findings"], serde_json::json!({}), "{summary}");
    assert_eq!(summary["infrastructure"], 0, "{summary}");
    assert!(
        !alive(server) && !dir.exists(),
        "the server stopped with txhunt"
    );
}

#[test]
fn a_server_killed_ten_times_under_a_campaign_gives_ten_infrastructure_events_and_no_candidate() {
    let tmp = private_tmp();
    let fuzz = spawn_fuzz(tmp.path(), "postgres", "600s");
    let mut last = None;
    for _ in 0..10 {
        let (_, server) = wait_for_server(tmp.path(), "postgres", last);
        // Let it start and run cases (and the retry of the case the last kill failed).
        std::thread::sleep(Duration::from_millis(2500));
        // As a crash: the server and its backends.
        signal(-(server as i64), libc::SIGKILL);
        last = Some(server);
    }
    wait_for_server(tmp.path(), "postgres", last);
    std::thread::sleep(Duration::from_millis(2500));
    signal(fuzz.id() as i64, libc::SIGINT);
    let ran = fuzz.wait_with_output().unwrap();
    let stderr = std::fs::read_to_string(tmp.path().join("stderr")).unwrap();
    assert_eq!(ran.status.code(), Some(130), "{stderr}");
    let summary = summary(&ran);
    assert_eq!(summary["infrastructure"], 10, "{summary}\n{stderr}");
    assert_eq!(summary["findings"], serde_json::json!({}), "{summary}");
    assert!(summary["cases"].as_u64().unwrap() > 10, "{summary}");
    let candidates = std::fs::read_dir(tmp.path().join("out"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "sql")
        })
        .count();
    assert_eq!(candidates, 0, "nothing saved as a bug candidate");
}

#[test]
fn an_unusable_out_or_a_zero_flag_stops_fuzz_before_it_starts_a_server() {
    let tmp = private_tmp();
    let file = tmp.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let out = run(
        tmp.path(),
        &[
            "fuzz",
            "--target",
            "postgres",
            "--cases",
            "1",
            "--out",
            file.to_str().unwrap(),
        ],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!("--out {}: cannot write there", file.display())),
        "{stderr}"
    );
    for (flag, value) in [
        ("--workers", "0"),
        ("--max-txns", "0"),
        ("--max-tables", "0"),
        ("--statement-timeout", "0s"),
    ] {
        let out = run(
            tmp.path(),
            &["fuzz", "--target", "postgres", "--cases", "1", flag, value],
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flag}: {stderr}");
        assert!(stderr.contains(flag), "{flag}: {stderr}");
    }
    let out = run(
        tmp.path(),
        &[
            "fuzz",
            "--target",
            "mariadb",
            "--cases",
            "1",
            "--isolation",
            "snapshot",
            "--out",
            tmp.path().join("out").to_str().unwrap(),
        ],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--isolation: mariadb does not support snapshot"),
        "{stderr}"
    );
    assert!(server_dirs(tmp.path(), "postgres").is_empty());
    assert!(server_dirs(tmp.path(), "mariadb").is_empty());
}

#[test]
fn sigint_to_txhunt_run_alone_exits_130_without_a_bug_candidate() {
    let tmp = private_tmp();
    let scenario = tmp.path().join("sleep.sql");
    std::fs::write(&scenario, "/* t1 */ SELECT pg_sleep(30);\n").unwrap();
    let run = spawn(
        tmp.path(),
        &["run", "--target", "postgres", scenario.to_str().unwrap()],
    );
    let (dir, server) = wait_for_server(tmp.path(), "postgres", None);
    std::thread::sleep(Duration::from_secs(3));
    signal(run.id() as i64, libc::SIGINT);
    let ran = run.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&ran.stdout);
    assert_eq!(ran.status.code(), Some(130), "{stdout}");
    assert!(!stdout.contains("BUG CANDIDATE"), "{stdout}");
    assert!(
        !alive(server) && !dir.exists(),
        "the server stopped with txhunt"
    );
}
