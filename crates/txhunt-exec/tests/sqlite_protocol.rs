//! The execution protocol on SQLite: exact schedules of the examples, both block detectors,
//! hangs, statements that never complete, and resumption order.

mod common;

use common::{assert_expectations, assert_released_before_resumed, example, schedule};
use std::time::Duration;
use txhunt_db::sqlite::SqliteTarget;
use txhunt_exec::{BlockDetection, Executor};
use txhunt_model::{scenario, History, Isolation, Outcome, TestCase, TxnStatus};

fn execute(case: &TestCase, isolation: Isolation, executor: Executor) -> History {
    let target = SqliteTarget::new(None).expect("sqlite target");
    common::execute_on(&target, case, isolation, executor)
}

const EXACT: Executor = Executor {
    detection: BlockDetection::Exact,
    statement_timeout: Duration::from_secs(10),
    instrument: false,
};

const TIMEOUT: Executor = Executor {
    detection: BlockDetection::Timeout(Duration::from_millis(250)),
    statement_timeout: Duration::from_secs(10),
    instrument: false,
};

fn check_example(name: &str, isolation: Isolation, want: &[&str]) {
    let case = example(name);
    for executor in [EXACT, TIMEOUT] {
        let history = execute(&case, isolation, executor);
        assert_eq!(
            schedule(&case, &history),
            want,
            "{name} with {}",
            executor.detection
        );
        assert_expectations(&case, &history);
        assert_released_before_resumed(&case, &history);
    }
}

#[test]
fn writer_blocks_writer_until_commit() {
    check_example(
        "01-writer-blocks-writer.sql",
        Isolation::Serializable,
        &["C7", "C8", "C9", "B10", "C11", "C12", "C10", "C13", "C14"],
    );
}

#[test]
fn busy_deadlock_aborts_the_reader_and_txhunt_rolls_it_back() {
    let want = ["C9", "C10", "C11", "C12", "C13", "Rt1", "C14", "C15"];
    check_example("02-busy-deadlock.sql", Isolation::Serializable, &want);
    let case = example("02-busy-deadlock.sql");
    let history = execute(&case, Isolation::Serializable, EXACT);
    assert_eq!(
        history.txns[0].status,
        TxnStatus::Aborted {
            step: 4,
            rollback_sent: true
        }
    );
    assert_eq!(history.txns[1].status, TxnStatus::Committed);
}

#[test]
fn rollback_releases_a_waiting_autocommit_insert() {
    check_example(
        "03-rollback-undoes.sql",
        Isolation::Serializable,
        &["C6", "C7", "C8", "B9", "C10", "C11", "C9"],
    );
}

#[test]
fn savepoints_roll_back_partially() {
    check_example(
        "04-savepoint.sql",
        Isolation::Serializable,
        &["C5", "C6", "C7", "C8", "C9", "C10", "C11", "C12", "C13"],
    );
}

#[test]
fn autocommit_statements_interleave_with_explicit_transactions() {
    check_example(
        "05-autocommit-interleaved.sql",
        Isolation::Serializable,
        &["C6", "C7", "C8", "B9", "C10", "C11", "C9", "C12", "C13"],
    );
}

#[test]
fn read_uncommitted_reads_dirty_data() {
    check_example(
        "06-dirty-read.sql",
        Isolation::ReadUncommitted,
        &["C7", "C8", "C9", "C10", "C11"],
    );
}

#[test]
fn serializable_never_reads_dirty_data() {
    let case = example("06-dirty-read.sql");
    let history = execute(&case, Isolation::Serializable, EXACT);
    let dirty = &history.steps[2].outcome;
    assert!(
        matches!(dirty, Outcome::Rows { rows, .. } if rows == &vec![vec![txhunt_model::Value::Int(10)]]),
        "{dirty}"
    );
}

#[test]
fn stale_snapshot_cannot_write() {
    check_example(
        "07-stale-snapshot.sql",
        Isolation::Serializable,
        &["C6", "C7", "C8", "C9", "C10", "Rt1", "C11"],
    );
}

#[test]
fn waiters_resume_in_the_order_they_blocked_and_are_recorded_in_completion_order() {
    let case = scenario::parse(
        "/* init */ CREATE TABLE t(k INT);
/* t1 */ BEGIN;
/* t1 */ INSERT INTO t VALUES (1);
/* t2 */ INSERT INTO t VALUES (2);  -- expect: blocked then affected 1
/* t3 */ INSERT INTO t VALUES (3);  -- expect: blocked then affected 1
/* t4 */ SELECT count(*) FROM t;    -- expect: rows [0]
/* t1 */ COMMIT;
/* t4 */ SELECT count(*) FROM t;    -- expect: rows [3]
",
        "chain.sql",
    )
    .unwrap();
    let history = execute(&case, Isolation::Serializable, EXACT);
    assert_eq!(
        schedule(&case, &history),
        ["C2", "C3", "B4", "B5", "C6", "C7", "C4", "C5", "C8"]
    );
    assert_expectations(&case, &history);
}

#[test]
fn a_wait_nothing_releases_never_completes() {
    let case = scenario::parse(
        "/* init */ CREATE TABLE t(k INT);
/* t1 */ BEGIN;
/* t1 */ INSERT INTO t VALUES (1);
/* t2 */ BEGIN;
/* t2 */ INSERT INTO t VALUES (2);
/* t2 */ COMMIT;
",
        "stuck.sql",
    )
    .unwrap();
    let history = execute(&case, Isolation::Serializable, EXACT);
    assert_eq!(schedule(&case, &history), ["C2", "C3", "C4", "B5"]);
    assert_eq!(history.steps[3].outcome, Outcome::NeverCompleted);
    assert!(matches!(history.steps[4].outcome, Outcome::NotRun { .. }));
    assert_eq!(history.txns[0].status, TxnStatus::Unfinished);
    assert_eq!(history.txns[1].status, TxnStatus::Unfinished);
    let state = history.final_state.expect("final state");
    assert_eq!(state.table("t"), Some(&[][..]));
}

#[test]
fn a_statement_that_runs_past_the_timeout_is_a_hang_and_its_session_is_torn_down() {
    let case = scenario::parse(
        "/* init */ CREATE TABLE t(k INT);
/* t1 */ BEGIN;
/* t1 */ INSERT INTO t VALUES (1);
/* t1 */ WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c;
/* t2 */ INSERT INTO t VALUES (2);  -- expect: affected 1
/* t1 */ COMMIT;
",
        "hang.sql",
    )
    .unwrap();
    let executor = Executor {
        statement_timeout: Duration::from_millis(300),
        ..EXACT
    };
    let history = execute(&case, Isolation::Serializable, executor);
    assert_eq!(
        history.steps[2].outcome,
        Outcome::Hang {
            after_ms: 300,
            lock_cycle: false
        }
    );
    assert!(
        matches!(&history.steps[4].outcome, Outcome::NotRun { reason } if reason.contains("torn down"))
    );
    assert_expectations(&case, &history);
    let state = history.final_state.expect("final state");
    assert_eq!(state.table("t").map(<[_]>::len), Some(1));
}
