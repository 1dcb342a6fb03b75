//! The execution protocol on a private PostgreSQL server: where it blocks, deadlocks, refuses
//! to serialize, at every isolation level, and what a crash looks like.

mod common;

use txhunt_db::testbed::ServerKind;
use txhunt_model::{Isolation, TxnStatus};

use common::postgres;

#[test]
fn postgres_scenarios_meet_their_expectations() {
    common::check_dbms_scenarios(postgres(), "postgres");
}

#[test]
fn repeatable_read_second_update_blocks_then_fails_to_serialize() {
    let case = common::example("postgres/lost-update-refused.sql");
    let history = common::execute_on(
        postgres(),
        &case,
        Isolation::RepeatableRead,
        Default::default(),
    );
    assert_eq!(
        common::schedule(&case, &history),
        ["C7", "C8", "C9", "C10", "C11", "B12", "C13", "C12", "Rt2", "C14"]
    );
    assert_eq!(
        history.txns[1].status,
        TxnStatus::Aborted {
            step: 5,
            rollback_sent: true
        }
    );
}

#[test]
fn deadlock_is_resolved_by_the_server_and_the_victim_rolled_back_by_txhunt() {
    let case = common::example("postgres/deadlock.sql");
    let history = common::execute_on(
        postgres(),
        &case,
        Isolation::ReadCommitted,
        Default::default(),
    );
    assert_eq!(
        common::schedule(&case, &history),
        ["C7", "C8", "C9", "C10", "B11", "B12", "C12", "Rt2", "C11", "C13", "C14"]
    );
}

#[test]
fn examples_run_at_every_isolation_level() {
    let schedules = common::run_examples_at_every_level(postgres());
    let rollback = schedules
        .iter()
        .find(|(name, l, _)| {
            name.ends_with("03-rollback-undoes.sql") && *l == Isolation::Serializable
        })
        .map(|(_, _, s)| s.clone())
        .expect("ran");
    // Different keys: PostgreSQL's row locks let the autocommit insert through at once.
    assert_eq!(rollback, ["C6", "C7", "C8", "C9", "C10", "C11"]);
}

#[test]
fn a_server_crash_mid_case_is_a_connection_error_and_a_fresh_server_starts() {
    common::crash_mid_case(ServerKind::Postgres, "SELECT pg_sleep(3)");
}

#[test]
fn a_statement_running_past_the_timeout_is_cancelled_as_a_hang() {
    common::hang_is_cancelled(postgres(), "SELECT pg_sleep(5)");
}

#[test]
fn a_waiting_statement_is_asked_about_only_after_what_may_release_its_lock() {
    // PostgreSQL holds row locks to the transaction's end at every level.
    let asked = common::probes_waiting_through_reads(postgres(), Isolation::ReadCommitted);
    assert!(asked <= 3, "{asked} questions");
}
