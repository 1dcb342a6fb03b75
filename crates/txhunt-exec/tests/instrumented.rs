//! Instrumented execution on real engines: the exact row versions each statement of a
//! scenario read and wrote, and the same user-visible history as a plain run.

mod common;

use std::path::Path;
use std::sync::OnceLock;
use txhunt_db::testbed::ServerKind;
use txhunt_db::{open_target, Target};
use txhunt_exec::Executor;
use txhunt_model::access::{Accesses, Read, RowId, Version, Write, WriteKind};
use txhunt_model::{scenario, History, Isolation, Outcome, TestCase, Value};

fn postgres() -> &'static dyn Target {
    static TARGET: OnceLock<Box<dyn Target>> = OnceLock::new();
    TARGET
        .get_or_init(|| common::shared_server(ServerKind::Postgres))
        .as_ref()
}

fn lost_update() -> TestCase {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/instrumented/lost-update.sql");
    scenario::parse(&std::fs::read_to_string(&path).unwrap(), "lost-update.sql").unwrap()
}

/// Row `k` of the setup's INSERT (setup statement 1, its `k - 1`-th row).
fn row(k: i64) -> RowId {
    RowId {
        table: "t".into(),
        rid: Version::Init(1).to_column() * txhunt_sql::instrument::ROWS_PER_STATEMENT + k - 1,
    }
}

fn read(k: i64, version: Version) -> Read {
    Read {
        row: row(k),
        version: Some(version),
    }
}

fn accesses(history: &History, step: usize) -> &Accesses {
    history.steps[step].accesses.as_ref().expect("instrumented")
}

/// The versions the lost-update scenario's steps read and wrote up to t1's COMMIT, on every
/// engine and level: the reads see the setup's version, t1's update replaces it.
fn assert_first_transaction(history: &History) {
    let init = Version::Init(1);
    assert_eq!(accesses(history, 1).reads, [read(1, init)], "{history:#?}");
    assert_eq!(accesses(history, 3).reads, [read(1, init)]);
    assert_eq!(
        history.steps[3].outcome,
        Outcome::Rows {
            columns: vec!["k".into(), "v".into()],
            rows: vec![vec![Value::Int(1), Value::Int(10)]],
        },
        "hidden columns are not shown"
    );
    assert_eq!(
        accesses(history, 4).writes,
        [Write {
            row: row(1),
            kind: WriteKind::Update,
            overwrote: Some(init),
            image: vec![Value::Int(1), Value::Int(11)],
        }]
    );
    assert_eq!(history.steps[4].outcome, Outcome::Affected { count: 1 });
    assert_eq!(
        accesses(history, 4).predicates[0].condition.as_deref(),
        Some("k = 1")
    );
    assert!(history
        .steps
        .iter()
        .all(|s| s.accesses.as_ref().is_some_and(|a| a.untracked.is_empty())));
    assert_eq!(history.tables[0].key, ["k"]);
}

#[test]
fn sqlite_lost_update_is_refused_and_every_version_is_named() {
    let sqlite = open_target("sqlite", None).unwrap();
    let history = Executor::default()
        .execute_instrumented(sqlite.as_ref(), &lost_update(), Isolation::Serializable)
        .unwrap();
    assert_first_transaction(&history);
    // t2 read the old snapshot: SQLite refuses its write; nothing written.
    assert!(
        history.steps[6].outcome.error().is_some(),
        "{:?}",
        history.steps[6]
    );
    assert!(accesses(&history, 6).writes.is_empty());
}

#[test]
fn postgres_read_committed_second_update_overwrites_the_first_updaters_version() {
    let history = Executor::default()
        .execute_instrumented(postgres(), &lost_update(), Isolation::ReadCommitted)
        .unwrap();
    assert_first_transaction(&history);
    // At READ COMMITTED t2's UPDATE reads t1's committed version and replaces it.
    assert_eq!(
        accesses(&history, 6).writes,
        [Write {
            row: row(1),
            kind: WriteKind::Update,
            overwrote: Some(Version::Step(4)),
            image: vec![Value::Int(1), Value::Int(13)],
        }]
    );
    let state = history.final_state.as_ref().unwrap();
    assert_eq!(
        state.table("t").unwrap(),
        [
            vec![Value::Int(1), Value::Int(13)],
            vec![Value::Int(2), Value::Int(20)]
        ]
    );
}

/// Instrumented and plain runs of every example give the same outcomes, schedule and final
/// state: instrumentation adds nothing a transaction could notice.
fn assert_same_as_plain(target: &dyn Target, levels: &[Isolation], dir: &str) {
    let mut compared = 0;
    for (name, case) in common::examples_in(dir) {
        for &level in levels {
            let executor = Executor::default();
            let plain = executor.execute(target, &case, level).unwrap();
            let instrumented = executor.execute_instrumented(target, &case, level).unwrap();
            let outcomes = |h: &History| {
                h.steps
                    .iter()
                    .map(|s| s.outcome.clone())
                    .collect::<Vec<_>>()
            };
            assert_eq!(
                outcomes(&instrumented),
                outcomes(&plain),
                "{name} at {level}"
            );
            assert_eq!(instrumented.schedule, plain.schedule, "{name} at {level}");
            assert_eq!(
                instrumented.final_state, plain.final_state,
                "{name} at {level}"
            );
            compared += 1;
        }
    }
    assert!(compared > 0, "no examples in {dir}");
}

#[test]
fn sqlite_examples_run_the_same_instrumented() {
    let sqlite = open_target("sqlite", None).unwrap();
    assert_same_as_plain(
        sqlite.as_ref(),
        &[Isolation::ReadUncommitted, Isolation::Serializable],
        "",
    );
}

#[test]
fn postgres_examples_run_the_same_instrumented() {
    assert_same_as_plain(
        postgres(),
        &[
            Isolation::ReadCommitted,
            Isolation::RepeatableRead,
            Isolation::Serializable,
        ],
        "postgres",
    );
}

#[test]
fn turso_runs_the_lost_update_and_its_examples_the_same_instrumented() {
    let turso = open_target("turso", None).unwrap();
    let history = Executor::default()
        .execute_instrumented(turso.as_ref(), &lost_update(), Isolation::Serializable)
        .unwrap();
    assert_first_transaction(&history);
    assert_same_as_plain(turso.as_ref(), &[Isolation::Serializable], "turso");
}
