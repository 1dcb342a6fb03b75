//! The findings store as campaigns use it: a run killed outright loses no finding it had
//! committed and `--resume` runs exactly the cases left; two processes sharing a PostgreSQL
//! store run one campaign, no case twice and none lost when one is killed mid-lease.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use txhunt_db::testbed::{Server, ServerKind};
use txhunt_store::{FindingQuery, Leased, Store};

/// `txhunt ARGS` with a temp dir below `dir`: a process killed outright leaves its
/// throwaway database files there, not in the machine's temp dir.
fn txhunt(dir: &Path, args: &[&str]) -> Command {
    let tmp = dir.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_txhunt"));
    command
        .args(args)
        .env("TMPDIR", tmp)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// SIGKILL, as a crash or an OOM killer would end a process.
fn kill(child: &mut Child) {
    // SAFETY: sends SIGKILL to a child we started.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGKILL);
    }
    child.wait().expect("reaped");
}

/// Waits until `ready` holds (checked every 50 ms), at most two minutes.
fn wait_for(what: &str, mut ready: impl FnMut() -> bool) {
    let started = Instant::now();
    while !ready() {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "never: {what}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The finished cases of the store's only campaign, per owner process (its pid).
fn cases_by_process(store: &Store) -> BTreeMap<String, Vec<u64>> {
    let campaigns = store.campaigns().unwrap();
    assert_eq!(campaigns.len(), 1, "{campaigns:#?}");
    let mut by: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    for (index, owner) in store.finished_cases(campaigns[0].id).unwrap() {
        let pid = owner.split(':').nth(1).unwrap().to_string();
        by.entry(pid).or_default().push(index);
    }
    by
}

#[test]
fn a_killed_run_keeps_its_committed_findings_and_resume_runs_the_cases_left() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap().to_string();
    // Turso's MVCC mode gives permissible WSS findings, which the store records like any.
    let args = [
        "fuzz",
        "--target",
        "turso-mvcc",
        "--seed",
        "1",
        "--cases",
        "150",
        "--lease-size",
        "8",
        "--no-reduce",
        "--format",
        "json",
        "--out",
        &out,
    ];
    let mut first = txhunt(dir.path(), &args).spawn().expect("starts");
    let db = dir.path().join("findings.db");
    wait_for("a committed finding and 20 finished cases", || {
        db.exists()
            && Store::open(db.to_str().unwrap()).is_ok_and(|s| {
                let some = FindingQuery {
                    permissible: true,
                    ..FindingQuery::default()
                };
                s.findings(&some).is_ok_and(|f| !f.is_empty())
                    && s.campaigns()
                        .is_ok_and(|c| c.first().is_some_and(|c| c.cases >= 20))
            })
    });
    kill(&mut first);
    let store = Store::open(db.to_str().unwrap()).unwrap();
    let killed = cases_by_process(&store);
    let before = store.findings(&FindingQuery {
        permissible: true,
        ..FindingQuery::default()
    });
    let before = before.unwrap();
    assert!(!before.is_empty());
    // Every committed finding is whole: its occurrence's scenario file is there too.
    for f in &before {
        let (_, occurrences) = store.finding(f.id).unwrap();
        for o in occurrences {
            assert!(std::path::Path::new(&o.path).is_file(), "{}", o.path);
            assert!(o.scenario.contains("-- finding: wss"), "{}", o.scenario);
        }
    }
    let campaign = store.campaigns().unwrap().remove(0);
    assert_eq!(campaign.ended_at, None, "a killed campaign has not ended");

    // Resuming needs no budget or seed: the campaign's own are used.
    let resume: Vec<&str> = (args.iter().copied())
        .filter(|a| !["--seed", "1", "--cases", "150"].contains(a))
        .chain(["--resume"])
        .collect();
    let resumed = txhunt(dir.path(), &resume).output().expect("runs");
    assert!(
        resumed.status.code().is_some_and(|c| c <= 1),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    let after = cases_by_process(&store);
    let all: Vec<u64> = after.values().flatten().copied().collect();
    let mut sorted = all.clone();
    sorted.sort();
    assert_eq!(sorted, (0..150).collect::<Vec<_>>(), "every case once");
    assert_eq!(after.len(), 2, "{after:?}");
    // The killed process's cases are as they were; the resumed one ran only the others.
    let (killed_pid, killed_cases) = killed.into_iter().next().unwrap();
    assert_eq!(after[&killed_pid], killed_cases);
    let campaign = store.campaign(campaign.id).unwrap();
    assert!(
        campaign.ended_at.is_some() && campaign.cases == 150,
        "{campaign:#?}"
    );
    let json: serde_json::Value = serde_json::from_slice(&resumed.stdout).unwrap();
    assert_eq!(
        json["cases"].as_u64().unwrap(),
        150 - killed_cases.len() as u64
    );
    assert_eq!(json["seed"], 1);
    // Nothing left to resume.
    let again = txhunt(dir.path(), &resume).output().expect("runs");
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("no unfinished campaign"));
}

#[test]
fn two_processes_share_a_postgresql_store_and_a_killed_ones_cases_are_run_once() {
    let server = Server::start(ServerKind::Postgres, None, None).expect("private PostgreSQL");
    let url = server.url().to_string();
    let dir = tempfile::tempdir().unwrap();
    let worker = |name: &str| {
        let out = dir.path().join(name);
        txhunt(
            dir.path(),
            &[
                "fuzz",
                "--target",
                "sqlite",
                "--seed",
                "7",
                "--cases",
                "400",
                "--lease-size",
                "10",
                "--no-reduce",
                "--store",
                &url,
                "--campaign",
                "shared",
                "--out",
                out.to_str().unwrap(),
                "--format",
                "json",
            ],
        )
        .spawn()
        .expect("starts")
    };
    let mut a = worker("a");
    let b = worker("b");
    let store = Store::open(&url).expect("the store");
    let pid_a = a.id().to_string();
    wait_for("process a finished 5 cases", || {
        store.campaigns().is_ok_and(|c| c.len() == 1)
            && cases_by_process(&store)
                .get(&pid_a)
                .is_some_and(|cases| cases.len() >= 5)
    });
    kill(&mut a);
    let killed = cases_by_process(&store).remove(&pid_a).unwrap();
    let out = b.wait_with_output().expect("b ends");
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let by = cases_by_process(&store);
    let all: Vec<u64> = by.values().flatten().copied().collect();
    let mut sorted = all.clone();
    sorted.sort();
    assert_eq!(
        sorted,
        (0..400).collect::<Vec<_>>(),
        "every case once: {by:?}"
    );
    assert_eq!(by[&pid_a], killed, "a's cases stayed a's");
    // a was killed inside its range (10 cases each): b ran the rest of it.
    let next = killed.iter().max().unwrap() + 1;
    assert!(!killed.contains(&next) && all.contains(&next));
    let campaign = store.campaigns().unwrap().remove(0);
    assert!(
        campaign.ended_at.is_some() && campaign.cases == 400,
        "{campaign:#?}"
    );
    for (pid, cases) in &by {
        eprintln!("process {pid}: {} cases: {}", cases.len(), ranges(cases));
    }
}

/// `cases` as ranges: `0-9, 20-29`.
fn ranges(cases: &[u64]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut start = None;
    for (k, &c) in cases.iter().enumerate() {
        let first = *start.get_or_insert(c);
        if cases.get(k + 1) != Some(&(c + 1)) {
            out.push(if first == c {
                c.to_string()
            } else {
                format!("{first}-{c}")
            });
            start = None;
        }
    }
    out.join(", ")
}

#[test]
fn a_range_whose_holder_stopped_heartbeating_is_taken_over_after_the_lease_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("findings.db");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "fuzz",
            "--target",
            "sqlite",
            "--seed",
            "3",
            "--cases",
            "60",
            "--lease-size",
            "10",
            "--no-reduce",
            "--campaign",
            "shared",
            "--store",
            db.to_str().unwrap(),
            "--out",
            dir.path().to_str().unwrap(),
            "--format",
            "json",
        ];
        args.extend_from_slice(extra);
        txhunt(dir.path(), &args)
    };
    // The campaign is started by a process killed after its first case.
    let mut first = run(&[]).spawn().expect("starts");
    wait_for("a finished case", || {
        db.exists()
            && Store::open(db.to_str().unwrap()).is_ok_and(|s| {
                s.campaigns()
                    .is_ok_and(|c| c.first().is_some_and(|c| c.cases > 0))
            })
    });
    kill(&mut first);
    // A worker on another machine leases a range, then is cut off: it never heartbeats.
    let store = Store::open(db.to_str().unwrap()).unwrap();
    let campaign = store.campaigns().unwrap().remove(0);
    let timeout = txhunt_store::DEFAULT_STALE_AFTER;
    let Ok(Leased::Range(lost)) = store.lease(campaign.id, "elsewhere:1:1", 10, timeout) else {
        panic!("a range to lease");
    };
    // The next process runs every other case, waits for that range to go stale (2 s),
    // takes it over and finishes the campaign.
    let second = run(&["--lease-timeout", "2s"]).spawn().expect("starts");
    let pid = second.id();
    let second = second.wait_with_output().expect("runs");
    assert!(
        second.status.code().is_some_and(|c| c <= 1),
        "{}",
        String::from_utf8_lossy(&second.stderr)
    );
    let finished = store.finished_cases(campaign.id).unwrap();
    let indices: Vec<u64> = finished.iter().map(|(i, _)| *i).collect();
    assert_eq!(indices, (0..60).collect::<Vec<_>>(), "every case once");
    let taken_over: Vec<u64> = (finished.iter())
        .filter(|(_, owner)| owner.contains(&format!(":{pid}:")))
        .map(|(i, _)| *i)
        .filter(|i| (lost.next..lost.end).contains(i))
        .collect();
    assert_eq!(taken_over, (lost.next..lost.end).collect::<Vec<_>>());
    assert!(store.campaign(campaign.id).unwrap().ended_at.is_some());
}
