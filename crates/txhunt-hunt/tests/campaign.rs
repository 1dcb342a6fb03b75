//! Campaigns are reproducible from their seed whatever the number of workers, and what they
//! save replays to the same history.

use std::sync::atomic::AtomicBool;
use txhunt_db::open_target;
use txhunt_exec::Executor;
use txhunt_hunt::store::{save, Saved};
use txhunt_hunt::{run, Campaign, Judge, Stats};
use txhunt_model::{scenario, Isolation};
use txhunt_oracle::{Detail, Finding, OracleId, Signature};
use txhunt_sql::dialect::Sqlite;
use txhunt_sql::{generate, GenConfig};

fn campaign(out: &std::path::Path, workers: usize) -> Campaign {
    Campaign {
        seed: 7,
        cases: Some(60),
        duration: None,
        levels: Vec::new(),
        workers,
        out: out.to_path_buf(),
        generator: GenConfig::default(),
        judge: Judge {
            executor: Executor::default(),
            oracles: txhunt_oracle::by_names("explicit,wss").unwrap(),
        },
        history: None,
        reduce: None,
        patterns: Vec::new(),
        mixed: false,
        recording: None,
    }
}

fn stats_of(workers: usize) -> Stats {
    let out = tempfile::tempdir().unwrap();
    let target = vec![open_target("sqlite", None).unwrap()];
    let reopen = |_| open_target("sqlite", None);
    let stop = AtomicBool::new(false);
    let summary = run(
        &campaign(out.path(), workers),
        target,
        &reopen,
        &stop,
        &|_| {},
    )
    .unwrap();
    assert_eq!(summary.stats.cases, 60);
    let mut stats = summary.stats;
    // Where the time went is timing, not a count: present, and left out of the comparison.
    assert!(
        stats.phases.get("execute").is_some_and(|&s| s > 0.0),
        "{stats:?}"
    );
    stats.phases.clear();
    stats
}

#[test]
fn the_same_seed_gives_the_same_counts_with_one_or_two_workers() {
    let one = stats_of(1);
    assert_eq!(one, stats_of(1));
    assert_eq!(one, stats_of(2));
    assert!(one.transactions >= 60 && one.statement_count() > one.transactions);
    assert_eq!(one.rejected_count(), 0, "{:?}", one.rejected);
}

#[test]
fn a_stop_request_ends_the_campaign_early() {
    let out = tempfile::tempdir().unwrap();
    let stop = AtomicBool::new(true);
    let summary = run(
        &campaign(out.path(), 2),
        vec![open_target("sqlite", None).unwrap()],
        &|_| open_target("sqlite", None),
        &stop,
        &|_| {},
    )
    .unwrap();
    assert_eq!(summary.stats.cases, 0);
}

#[test]
fn saved_cases_replay_to_the_same_history() {
    let dir = tempfile::tempdir().unwrap();
    let target = open_target("sqlite", None).unwrap();
    let executor = Executor::default();
    for seed in 0..40 {
        let level = if seed % 2 == 0 {
            Isolation::Serializable
        } else {
            Isolation::ReadUncommitted
        };
        let generated = generate(seed, &GenConfig::default(), &Sqlite, level, None);
        let history = executor
            .execute(target.as_ref(), &generated.case, level)
            .unwrap();
        let finding = Finding {
            details: vec![Detail::Note {
                text: "evidence".into(),
            }],
            ..Finding::new(Signature::Hang, "a case saved as a finding".into(), vec![0])
        };
        let saved = Saved {
            campaign_seed: 1,
            index: seed,
            case_seed: seed,
            finding: &finding,
            case: &generated.case,
            history: &history,
            baseline: None,
            targets: &["sqlite".to_string()],
            oracles: &[OracleId::Explicit, OracleId::Wss],
            history_format: None,
        };
        let path = save(dir.path(), &saved).unwrap().path;
        let text = std::fs::read_to_string(&path).unwrap();
        let replayed_case = scenario::parse(&text, &path.display().to_string()).unwrap();
        assert_eq!(replayed_case.header.isolation, vec![level]);
        assert!(
            text.contains("-- targets: sqlite\n-- oracles: explicit,wss\n"),
            "{text}"
        );
        let replayed = executor
            .execute(target.as_ref(), &replayed_case, level)
            .unwrap();
        assert_eq!(replayed.schedule, history.schedule, "{text}");
        let outcomes = |h: &txhunt_model::History| {
            h.steps
                .iter()
                .map(|s| s.outcome.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(outcomes(&replayed), outcomes(&history), "{text}");
        assert_eq!(replayed.final_state, history.final_state);
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path.with_extension("json")).unwrap())
                .unwrap();
        assert_eq!(json["case_seed"], seed);
        assert!(json["history"]["schedule"].is_array());
    }
}

#[test]
fn a_finding_saved_again_under_the_same_name_overwrites_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let target = open_target("sqlite", None).unwrap();
    let level = Isolation::Serializable;
    let generated = generate(3, &GenConfig::default(), &Sqlite, level, None);
    let history = Executor::default()
        .execute(target.as_ref(), &generated.case, level)
        .unwrap();
    let finding = Finding::new(Signature::Hang, "a case saved twice".into(), vec![0]);
    let targets = ["sqlite".to_string()];
    let saved = |campaign_seed| Saved {
        campaign_seed,
        index: 12,
        case_seed: 987654321,
        finding: &finding,
        case: &generated.case,
        history: &history,
        baseline: None,
        targets: &targets,
        oracles: &[OracleId::Explicit],
        history_format: None,
    };
    let first = save(dir.path(), &saved(1)).unwrap().path;
    let second = save(dir.path(), &saved(2)).unwrap().path;
    let name = |p: &std::path::Path| p.file_name().unwrap().to_string_lossy().into_owned();
    assert_eq!(name(&first), "000012-987654321-explicit-hang.sql");
    assert_eq!(name(&second), "000012-987654321-explicit-hang-2.sql");
    let id = |p: &std::path::Path| {
        let text = std::fs::read_to_string(p).unwrap();
        let case = scenario::parse(&text, "saved").unwrap();
        case.header.id.unwrap()
    };
    assert_eq!(
        (id(&first), id(&second)),
        ("fuzz-1-12".into(), "fuzz-2-12".into())
    );
    let mut files: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| name(&e.unwrap().path()))
        .collect();
    files.sort();
    assert_eq!(
        files,
        [
            "000012-987654321-explicit-hang-2.json",
            "000012-987654321-explicit-hang-2.sql",
            "000012-987654321-explicit-hang.json",
            "000012-987654321-explicit-hang.sql",
        ],
        "no temp file is left"
    );
}

#[test]
fn a_saved_finding_of_an_instrumented_run_has_its_history_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let target = open_target("sqlite", None).unwrap();
    let executor = Executor {
        instrument: true,
        ..Executor::default()
    };
    let level = Isolation::Serializable;
    let generated = generate(3, &GenConfig::default(), &Sqlite, level, None);
    let history = executor
        .execute(target.as_ref(), &generated.case, level)
        .unwrap();
    let finding = Finding::new(Signature::Hang, "a case saved as a finding".into(), vec![0]);
    let saved = Saved {
        campaign_seed: 1,
        index: 3,
        case_seed: 3,
        finding: &finding,
        case: &generated.case,
        history: &history,
        baseline: None,
        targets: &["sqlite".to_string()],
        oracles: &[OracleId::Explicit],
        history_format: Some(txhunt_hunt::export::HistoryFormat::Dbcop),
    };
    let path = save(dir.path(), &saved).unwrap().path;
    let beside = path.with_extension("dbcop.json");
    let text = std::fs::read_to_string(&beside)
        .unwrap_or_else(|e| panic!("{} beside {}: {e}", beside.display(), path.display()));
    let dbcop: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert!(dbcop["data"].is_array(), "{dbcop}");
}

/// The CPUs process `pid` may run on, as `/proc/PID/status` lists them (`0-1`, `1`).
fn cpus_allowed(pid: u32) -> String {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = (status.lines())
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
        .expect("the status lists the allowed CPUs");
    line.trim().to_string()
}

#[test]
fn two_workers_on_a_testbed_server_each_run_on_a_server_of_their_own_pinned_with_it() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Arc, Mutex};
    use txhunt_db::Target;
    let out = tempfile::tempdir().unwrap();
    let first: Arc<dyn Target> = Arc::from(open_target("mariadb", None).unwrap());
    let opened = AtomicUsize::new(0);
    // The second worker's server: its pid, and the CPUs it may use once started.
    let second = Mutex::new(None);
    let reopen = |_| {
        opened.fetch_add(1, Ordering::SeqCst);
        let target = open_target("mariadb", None)?;
        let server = target.private_server().expect("a testbed server");
        *second.lock().unwrap() = Some((server.pid(), cpus_allowed(server.pid())));
        Ok(target)
    };
    let mut two = campaign(out.path(), 2);
    two.cases = Some(8);
    two.judge.oracles = txhunt_oracle::by_names("explicit").unwrap();
    let stop = AtomicBool::new(false);
    let summary =
        txhunt_hunt::campaign::run_shared(&two, vec![Arc::clone(&first)], &reopen, &stop, &|_| {})
            .unwrap();
    assert_eq!(summary.stats.cases, 8);
    assert_eq!(
        opened.load(Ordering::SeqCst),
        1,
        "the second worker's own server"
    );
    let cpus = txhunt_db::affinity::allowed_cpus();
    let on = |w: usize| cpus[w % cpus.len()].to_string();
    let first_pid = first.private_server().unwrap().pid();
    assert_eq!(cpus_allowed(first_pid), on(0), "the first worker's server");
    let (second_pid, second_cpus) = second.lock().unwrap().clone().expect("a server of its own");
    assert_ne!(second_pid, first_pid);
    assert_eq!(second_cpus, on(1), "the second worker's server");
}
