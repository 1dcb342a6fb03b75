//! Instrumented execution on real engines: the exact row versions each statement of a
//! scenario read and wrote, and the same user-visible history as a plain run.

mod common;

use common::{mariadb, postgres};
use std::path::Path;
use txhunt_db::{open_target, Target};
use txhunt_exec::Executor;
use txhunt_model::access::{Accesses, Read, RowId, Version, Write, WriteKind};
use txhunt_model::{scenario, ErrorClass, Event, History, Isolation, Outcome, TestCase, Value};

/// A scenario of `tests/instrumented/`.
fn scenario_named(name: &str) -> TestCase {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/instrumented")
        .join(name);
    scenario::parse(&std::fs::read_to_string(&path).unwrap(), name).unwrap()
}

fn lost_update() -> TestCase {
    scenario_named("lost-update.sql")
}

/// Row `k` of the setup's INSERT into `t` (setup statement 1, its `k - 1`-th row).
fn row(k: i64) -> RowId {
    row_of("t", k)
}

/// Row `k` of the setup's INSERT into `table` (setup statement 1, its `k - 1`-th row).
fn row_of(table: &str, k: i64) -> RowId {
    RowId {
        table: table.into(),
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

/// `history`'s schedule without the block point of a deadlock's victim: the statement that
/// closes the cycle waits until the DBMS's deadlock check (PostgreSQL's `deadlock_timeout`,
/// 5 ms on the testbed) refuses it, and whether txhunt's probe sees it waiting first depends
/// on the machine's load, in a plain run as in an instrumented one.
fn schedule(history: &History) -> Vec<Event> {
    let victim = |step: usize| {
        (history.steps[step].outcome.error()).is_some_and(|e| e.class == ErrorClass::Deadlock)
    };
    (history.schedule.iter())
        .filter(|e| !matches!(e, Event::Blocked { step } if victim(*step)))
        .cloned()
        .collect()
}

/// Instrumented and plain runs of every example give the same outcomes, schedule and final
/// state: instrumentation adds nothing a transaction could notice.
fn assert_same_as_plain(target: &dyn Target, levels: &[Isolation], dir: &str) {
    let mut compared = 0;
    for (name, case) in common::examples_in(dir) {
        assert_case_same_as_plain(target, levels, &name, &case);
        compared += levels.len();
    }
    assert!(compared > 0, "no examples in {dir}");
}

/// Instrumented and plain runs of `case` (named `name`) agree as in [`assert_same_as_plain`]
/// at each of `levels`.
fn assert_case_same_as_plain(
    target: &dyn Target,
    levels: &[Isolation],
    name: &str,
    case: &TestCase,
) {
    let outcomes = |h: &History| {
        h.steps
            .iter()
            .map(|s| s.outcome.clone())
            .collect::<Vec<_>>()
    };
    for &level in levels {
        let executor = Executor::default();
        let plain = executor.execute(target, case, level).unwrap();
        let instrumented = executor.execute_instrumented(target, case, level).unwrap();
        let at = format!("{name} at {level} on {}", target.name());
        assert_eq!(outcomes(&instrumented), outcomes(&plain), "{at}");
        assert_eq!(schedule(&instrumented), schedule(&plain), "{at}");
        assert_eq!(instrumented.final_state, plain.final_state, "{at}");
    }
}

/// A case whose step adds a column runs the same instrumented everywhere, and both runs show
/// what the scenario expects (a failed expectation is a finding of the explicit oracle).
#[test]
fn a_column_added_by_a_step_stands_where_the_case_put_it() {
    let case = scenario_named("add-column.sql");
    let (sqlite, turso) = (
        open_target("sqlite", None).unwrap(),
        open_target("turso", None).unwrap(),
    );
    for target in [sqlite.as_ref(), turso.as_ref(), postgres(), mariadb()] {
        let level = Isolation::Serializable;
        assert_case_same_as_plain(target, &[level], "add-column.sql", &case);
        let history = Executor::default()
            .execute_instrumented(target, &case, level)
            .unwrap();
        let state = history.final_state.as_ref().unwrap();
        let int = |k: i64| Value::Int(k);
        assert_eq!(
            state.table("t").unwrap(),
            [
                vec![int(1), int(10), int(7)],
                vec![int(2), int(20), int(5)],
                vec![int(3), int(30), Value::Null]
            ],
            "{}",
            target.name()
        );
    }
}

/// An outcome as two runs of one case must agree on it: rows as a bag (without ORDER BY the
/// engine may return them in another order once the query reads more columns), errors by
/// class and code (messages name the run's database).
fn comparable(outcome: &Outcome) -> Outcome {
    match outcome {
        Outcome::Rows { columns, rows } => {
            let mut rows = rows.clone();
            rows.sort_by_key(|row| format!("{row:?}"));
            Outcome::Rows {
                columns: columns.clone(),
                rows,
            }
        }
        Outcome::Error(e) => Outcome::Error(txhunt_model::DbError {
            message: String::new(),
            ..e.clone()
        }),
        other => other.clone(),
    }
}

/// Instrumented and plain runs of `n` generated cases (seeds from 1) at each of `levels`
/// agree as in [`assert_same_as_plain`], and more than four statements in five are tracked.
fn generated_cases_run_the_same(target: &dyn Target, levels: &[Isolation], n: u64) {
    let dialect = txhunt_sql::dialect::for_family(target.profile().family());
    let (mut tracked, mut untracked) = (0, 0);
    for (seed, &level) in (1..=n).flat_map(|seed| levels.iter().map(move |l| (seed, l))) {
        let case = txhunt_sql::generate(seed, &Default::default(), dialect, level, None).case;
        let executor = Executor::default();
        let plain = executor.execute(target, &case, level).unwrap();
        let instrumented = executor.execute_instrumented(target, &case, level).unwrap();
        // An untracked write (REPLACE on MariaDB) runs as written, but the rows it replaces
        // carry hidden columns it sets to NULL: its own row count may differ (documented in
        // txhunt_sql::instrument); every other outcome must not.
        let replaces = |s: usize| {
            case.steps[s].stmt.kind().is_write()
                && !instrumented.steps[s]
                    .accesses
                    .as_ref()
                    .unwrap()
                    .untracked
                    .is_empty()
        };
        let outcomes = |h: &History| {
            (h.steps.iter().enumerate())
                .filter(|(s, _)| !replaces(*s))
                .map(|(_, s)| comparable(&s.outcome))
                .collect::<Vec<_>>()
        };
        // A schedule with a lock wait the DBMS resolves by a race (two waiters resumed
        // together) may differ between any two runs; compare outcomes where it is the same.
        if instrumented.schedule == plain.schedule {
            assert_eq!(
                outcomes(&instrumented),
                outcomes(&plain),
                "seed {seed}: {case:#?}"
            );
            assert_eq!(instrumented.final_state, plain.final_state, "seed {seed}");
        }
        for step in &instrumented.steps {
            let accesses = step.accesses.as_ref().expect("instrumented");
            if accesses.untracked.is_empty() {
                tracked += 1;
            } else {
                untracked += 1;
            }
        }
    }
    assert!(
        tracked > 4 * untracked,
        "{tracked} tracked, {untracked} untracked"
    );
}

#[test]
fn generated_cases_run_the_same_instrumented_on_sqlite() {
    let sqlite = open_target("sqlite", None).unwrap();
    let levels = [Isolation::ReadUncommitted, Isolation::Serializable];
    generated_cases_run_the_same(sqlite.as_ref(), &levels, 60);
}

#[test]
fn generated_cases_run_the_same_instrumented_on_postgres() {
    let levels = [Isolation::ReadCommitted, Isolation::Serializable];
    generated_cases_run_the_same(postgres(), &levels, 25);
}

#[test]
fn generated_cases_run_the_same_instrumented_on_mariadb() {
    let levels = [Isolation::ReadCommitted, Isolation::Serializable];
    generated_cases_run_the_same(mariadb(), &levels, 25);
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

#[test]
fn the_second_updater_overwrites_the_first_updaters_version() {
    // PostgreSQL's READ COMMITTED and InnoDB's REPEATABLE READ alike: t2's UPDATE waits for
    // t1, then updates the newest committed version (t1's), though t2's reads saw the
    // setup's: the lost update's second half (the trigger log on MariaDB, RETURNING on
    // PostgreSQL).
    for (target, level) in [
        (postgres(), Isolation::ReadCommitted),
        (mariadb(), Isolation::RepeatableRead),
    ] {
        let history = Executor::default()
            .execute_instrumented(target, &lost_update(), level)
            .unwrap();
        assert_first_transaction(&history);
        assert_eq!(
            accesses(&history, 6).writes,
            [Write {
                row: row(1),
                kind: WriteKind::Update,
                overwrote: Some(Version::Step(4)),
                image: vec![Value::Int(1), Value::Int(13)],
            }],
            "{}",
            target.name()
        );
    }
    let history = Executor::default()
        .execute_instrumented(postgres(), &lost_update(), Isolation::ReadCommitted)
        .unwrap();
    let state = history.final_state.as_ref().unwrap();
    assert_eq!(
        state.table("t").unwrap(),
        [
            vec![Value::Int(1), Value::Int(13)],
            vec![Value::Int(2), Value::Int(20)]
        ]
    );
}

#[test]
fn mariadb_examples_run_the_same_instrumented() {
    assert_same_as_plain(
        mariadb(),
        &[
            Isolation::ReadUncommitted,
            Isolation::ReadCommitted,
            Isolation::RepeatableRead,
            Isolation::Serializable,
        ],
        "mariadb",
    );
}

/// The writes of `step`, as (row, kind, overwritten version, image).
fn writes(history: &History, step: usize) -> Vec<(RowId, WriteKind, Option<Version>, Vec<i64>)> {
    accesses(history, step)
        .writes
        .iter()
        .map(|w| {
            let image = w
                .image
                .iter()
                .map(|v| match v {
                    Value::Int(n) => *n,
                    other => panic!("an integer image: {other:?}"),
                })
                .collect();
            (w.row.clone(), w.kind, w.overwrote, image)
        })
        .collect()
}

#[test]
fn write_skew_reads_the_same_versions_and_writes_different_rows() {
    let case = scenario_named("write-skew.sql");
    let init = Version::Init(1);
    for (target, level) in [
        (postgres(), Isolation::RepeatableRead),
        (mariadb(), Isolation::RepeatableRead),
    ] {
        let history = Executor::default()
            .execute_instrumented(target, &case, level)
            .unwrap();
        let both = [
            Read {
                row: row_of("doctors", 1),
                version: Some(init),
            },
            Read {
                row: row_of("doctors", 2),
                version: Some(init),
            },
        ];
        for step in [2, 3] {
            assert_eq!(accesses(&history, step).reads, both, "{}", target.name());
            assert_eq!(
                accesses(&history, step).predicates[0].condition.as_deref(),
                Some("on_call = 1")
            );
        }
        assert_eq!(
            writes(&history, 4),
            [(
                row_of("doctors", 1),
                WriteKind::Update,
                Some(init),
                vec![1, 0]
            )]
        );
        assert_eq!(
            writes(&history, 5),
            [(
                row_of("doctors", 2),
                WriteKind::Update,
                Some(init),
                vec![2, 0]
            )]
        );
    }
}

#[test]
fn a_dirty_read_returns_the_version_of_a_transaction_that_rolls_back() {
    let case = scenario_named("dirty-read.sql");
    let sqlite = open_target("sqlite", None).unwrap();
    for target in [sqlite.as_ref(), mariadb()] {
        let history = Executor::default()
            .execute_instrumented(target, &case, Isolation::ReadUncommitted)
            .unwrap();
        assert_eq!(
            writes(&history, 1),
            [(
                row(1),
                WriteKind::Update,
                Some(Version::Init(1)),
                vec![1, 11]
            )]
        );
        assert_eq!(
            accesses(&history, 2).reads,
            [read(1, Version::Step(1))],
            "{}",
            target.name()
        );
        assert!(matches!(
            history.txns[0].status,
            txhunt_model::TxnStatus::RolledBack
        ));
    }
}

#[test]
fn a_repeated_predicate_read_at_read_committed_sees_the_inserted_row() {
    let case = scenario_named("phantom-insert.sql");
    let inserted = RowId {
        table: "t".into(),
        rid: Version::Step(2).to_column() * txhunt_sql::instrument::ROWS_PER_STATEMENT,
    };
    for target in [postgres(), mariadb()] {
        let history = Executor::default()
            .execute_instrumented(target, &case, Isolation::ReadCommitted)
            .unwrap();
        assert_eq!(accesses(&history, 1).reads, [read(1, Version::Init(1))]);
        assert_eq!(
            writes(&history, 2),
            [(inserted.clone(), WriteKind::Insert, None, vec![2, 20])]
        );
        let again = &accesses(&history, 3).predicates[0];
        assert_eq!(again.condition.as_deref(), Some("v > 5"));
        assert_eq!(
            again.matched,
            [
                read(1, Version::Init(1)),
                Read {
                    row: inserted.clone(),
                    version: Some(Version::Step(2)),
                }
            ],
            "{}",
            target.name()
        );
    }
}

#[test]
fn a_predicate_delete_names_each_version_it_removed() {
    let case = scenario_named("predicate-delete.sql");
    let sqlite = open_target("sqlite", None).unwrap();
    let turso = open_target("turso", None).unwrap();
    for target in [sqlite.as_ref(), turso.as_ref(), postgres(), mariadb()] {
        let level = target.profile().default_isolation();
        let history = Executor::default()
            .execute_instrumented(target, &case, level)
            .unwrap();
        assert_eq!(
            writes(&history, 2),
            [
                (
                    row(2),
                    WriteKind::Delete,
                    Some(Version::Init(1)),
                    vec![2, 20]
                ),
                (
                    row(3),
                    WriteKind::Delete,
                    Some(Version::Step(1)),
                    vec![3, 25]
                ),
            ],
            "{}",
            target.name()
        );
        assert_eq!(history.steps[2].outcome, Outcome::Affected { count: 2 });
        assert_eq!(
            accesses(&history, 2).predicates[0].condition.as_deref(),
            Some("v > 15")
        );
        assert_eq!(
            history.final_state.as_ref().unwrap().table("t").unwrap(),
            [vec![Value::Int(1), Value::Int(10)]]
        );
    }
}

#[test]
fn an_aggregate_reads_the_versions_of_the_rows_it_counted_through_its_version_set() {
    let case = scenario::parse(
        "/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);\n\
         /* init */ INSERT INTO t VALUES (1, 10), (2, 20), (3, 30);\n\
         /* t1 */ BEGIN;\n\
         /* t1 */ UPDATE t SET v = 25 WHERE k = 3;\n\
         /* t1 */ SELECT count(*) FROM t WHERE v > 15;\n\
         /* t1 */ COMMIT;\n",
        "aggregate.sql",
    )
    .unwrap();
    let sqlite = open_target("sqlite", None).unwrap();
    for (target, level) in [
        (sqlite.as_ref(), Isolation::Serializable),
        (postgres(), Isolation::ReadCommitted),
        (mariadb(), Isolation::RepeatableRead),
    ] {
        let history = Executor::default()
            .execute_instrumented(target, &case, level)
            .unwrap();
        let Outcome::Rows { rows, .. } = &history.steps[2].outcome else {
            panic!("{:?}", history.steps[2])
        };
        assert_eq!(rows, &[vec![Value::Int(2)]], "{}", target.name());
        let counted = accesses(&history, 2);
        assert_eq!(
            counted.reads,
            [read(2, Version::Init(1)), read(3, Version::Step(1))],
            "{}",
            target.name()
        );
        assert_eq!(counted.predicates[0].condition.as_deref(), Some("v > 15"));
        assert!(counted.untracked.is_empty());
    }
}

#[test]
fn the_reads_of_a_subquery_come_first_and_are_counted_as_version_set_reads() {
    let case = scenario::parse(
        "/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);
        /* init */ INSERT INTO t VALUES (1, 10), (2, 20), (3, 30);
        /* init */ CREATE TABLE u(k INT PRIMARY KEY);
        /* init */ INSERT INTO u VALUES (2), (3);
        /* t1 */ SELECT v FROM t WHERE k IN (SELECT k FROM u);
        /* t1 */ SELECT v FROM t WHERE k > 1;",
        "subquery.sql",
    )
    .unwrap();
    let target = open_target("sqlite", None).unwrap();
    let executor = Executor {
        instrument: true,
        ..Executor::default()
    };
    let history = executor
        .execute(target.as_ref(), &case, Isolation::Serializable)
        .unwrap();
    let init = Version::Init(1);
    let u = |k| Read {
        row: RowId {
            table: "u".into(),
            rid: Version::Init(3).to_column() * txhunt_sql::instrument::ROWS_PER_STATEMENT + k - 2,
        },
        version: Some(Version::Init(3)),
    };
    let subquery = accesses(&history, 0);
    assert_eq!(subquery.version_set_reads, 2, "{subquery:#?}");
    assert_eq!(subquery.reads[..2], [u(2), u(3)]);
    assert_eq!(subquery.reads[2..], [read(2, init), read(3, init)]);
    let plain = accesses(&history, 1);
    assert_eq!(plain.version_set_reads, 0, "{plain:#?}");
    assert_eq!(plain.reads, [read(2, init), read(3, init)]);
}
