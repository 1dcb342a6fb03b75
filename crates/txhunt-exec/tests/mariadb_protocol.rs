//! The execution protocol on a private MariaDB server: where InnoDB blocks, deadlocks, aborts,
//! at every isolation level, and what a crash looks like.

mod common;

use txhunt_db::testbed::ServerKind;
use txhunt_model::{ErrorClass, Isolation, Outcome};

use common::mariadb;

#[test]
fn mariadb_scenarios_meet_their_expectations() {
    common::check_dbms_scenarios(mariadb(), "mariadb");
}

#[test]
fn lost_update_blocks_then_succeeds_at_repeatable_read() {
    let case = common::example("mariadb/lost-update.sql");
    let history = common::execute_on(
        mariadb(),
        &case,
        Isolation::RepeatableRead,
        Default::default(),
    );
    assert_eq!(
        common::schedule(&case, &history),
        ["C7", "C8", "C9", "C10", "C11", "B12", "C13", "C12", "C14"]
    );
}

#[test]
fn deadlock_victim_is_rolled_back_by_innodb() {
    let case = common::example("mariadb/deadlock.sql");
    let history = common::execute_on(
        mariadb(),
        &case,
        Isolation::RepeatableRead,
        Default::default(),
    );
    assert_eq!(
        common::schedule(&case, &history),
        ["C7", "C8", "C9", "C10", "B11", "C12", "C11", "C13", "C14"]
    );
    // InnoDB ended t2's transaction itself (@@in_transaction = 0): no ROLLBACK was needed.
    assert_eq!(
        history.txns[1].status,
        txhunt_model::TxnStatus::Aborted {
            step: 5,
            rollback_sent: false
        }
    );
}

#[test]
fn examples_run_at_every_isolation_level() {
    let schedules = common::run_examples_at_every_level(mariadb());
    let first = |level: Isolation| {
        schedules
            .iter()
            .find(|(name, l, _)| name.ends_with("01-writer-blocks-writer.sql") && *l == level)
            .map(|(_, _, s)| s.clone())
            .expect("ran")
    };
    // Row locks: writers of different rows do not block each other ...
    assert_eq!(
        first(Isolation::RepeatableRead),
        ["C7", "C8", "C9", "C10", "C11", "C12", "C13", "C14"]
    );
    // ... but at serializable t1's plain read waits for t2's row lock, and t2's read then
    // closes a deadlock.
    assert_eq!(
        first(Isolation::Serializable),
        ["C7", "C8", "C9", "C10", "B11", "C13", "C11", "C12", "C14"]
    );
}

#[test]
fn a_server_crash_mid_case_is_a_connection_error_and_a_fresh_server_starts() {
    common::crash_mid_case(ServerKind::Mariadb, "SELECT SLEEP(3)");
}

#[test]
fn a_statement_running_past_the_timeout_is_cancelled_as_a_hang() {
    common::hang_is_cancelled(mariadb(), "SELECT SLEEP(5)");
}

#[test]
fn questions_go_in_batches_and_one_that_fails_stops_none_after_it() {
    // More questions than one batch holds, a duplicate key among them: every question gets
    // its own outcome, in order, on one session (the setup's table is there).
    let mut questions = vec![
        "INSERT INTO q VALUES (1)".to_string(),
        "INSERT INTO q VALUES (1)".to_string(),
        "SELECT COUNT(*) FROM q".to_string(),
    ];
    questions.extend((0..100).map(|n| format!("SELECT {n}")));
    let questions: Vec<&str> = questions.iter().map(String::as_str).collect();
    let answers = txhunt_exec::Executor::default()
        .ask(
            mariadb(),
            &["CREATE TABLE q(a INT PRIMARY KEY)"],
            &questions,
            Isolation::RepeatableRead,
        )
        .expect("the questions run");
    assert_eq!(answers.len(), questions.len());
    assert_eq!(answers[0], txhunt_model::Outcome::Affected { count: 1 });
    let error = answers[1].error().expect("a duplicate key");
    assert_eq!(error.code.as_deref(), Some("1062"), "{error:?}");
    let value = |o: &txhunt_model::Outcome| match o {
        txhunt_model::Outcome::Rows { rows, .. } => rows[0][0].clone(),
        other => panic!("no rows: {other:?}"),
    };
    assert_eq!(value(&answers[2]), txhunt_model::Value::Int(1));
    for (n, answer) in answers[3..].iter().enumerate() {
        assert_eq!(value(answer), txhunt_model::Value::Int(n as i64));
    }
}

#[test]
fn a_waiting_statement_is_asked_about_only_after_what_may_release_its_lock() {
    // At REPEATABLE READ InnoDB holds row locks to the transaction's end: t1's reads cannot
    // let t2 go, and only the wait itself and t1's COMMIT are followed by questions.
    let held = common::probes_waiting_through_reads(mariadb(), Isolation::RepeatableRead);
    assert!(held <= 3, "{held} questions at repeatable-read");
    // At READ COMMITTED any statement may release row locks: one after each of them.
    let released = common::probes_waiting_through_reads(mariadb(), Isolation::ReadCommitted);
    assert!(released >= held + 3, "{released} against {held}");
}

/// The deadlock InnoDB leaves behind after rolling back a victim (corpus file
/// `mariadb/MARIADB-deadlock-left-after-victim.sql`): t1's and t4's INSERTs each wait for the
/// other. MariaDB 10.11 leaves both waiting: both are hangs in a lock-wait cycle, never hangs
/// of statements that were not waiting. A fixed MariaDB rolls one back: one deadlock error,
/// and the other INSERT ends.
#[test]
fn a_deadlock_left_undetected_is_a_hang_in_a_lock_wait_cycle() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../corpus/mariadb/MARIADB-deadlock-left-after-victim.sql"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let case = txhunt_model::scenario::parse(&text, path).unwrap();
    let executor = txhunt_exec::Executor {
        statement_timeout: std::time::Duration::from_millis(1500),
        ..Default::default()
    };
    let history = common::execute_on(mariadb(), &case, Isolation::RepeatableRead, executor);
    let inserts = [6, 7].map(|i| history.steps[i].outcome.clone());
    let count = |f: &dyn Fn(&Outcome) -> bool| inserts.iter().filter(|o| f(o)).count();
    let in_cycle = count(&|o| {
        matches!(
            o,
            Outcome::Hang {
                lock_cycle: true,
                ..
            }
        )
    });
    let deadlocks = count(&|o| o.error().is_some_and(|e| e.class == ErrorClass::Deadlock));
    let ended = count(&|o| o.succeeded());
    assert!(
        in_cycle == 2 || (deadlocks == 1 && ended == 1),
        "{inserts:?}"
    );
}
