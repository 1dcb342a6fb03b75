//! Helpers shared by the protocol tests of every target.
#![allow(dead_code)]

use std::path::Path;
use txhunt_db::Target;
use txhunt_exec::Executor;
use txhunt_model::{scenario, Event, History, Isolation, TestCase};

pub fn example(name: &str) -> TestCase {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("example exists");
    scenario::parse(&text, name).expect("example parses")
}

pub fn execute_on(
    target: &dyn Target,
    case: &TestCase,
    isolation: Isolation,
    executor: Executor,
) -> History {
    executor
        .execute(target, case, isolation)
        .expect("execution runs")
}

/// The actual schedule as `B<line>` (blocked), `C<line>` (completed) and `R<session>` (rollback
/// sent by txhunt).
pub fn schedule(case: &TestCase, history: &History) -> Vec<String> {
    let line = |step: &usize| case.steps[*step].stmt.line.unwrap_or(0);
    let txns = case.txns();
    history
        .schedule
        .iter()
        .map(|e| match e {
            Event::Blocked { step } => format!("B{}", line(step)),
            Event::Completed { step } => format!("C{}", line(step)),
            Event::Rollback { txn, .. } => format!("R{}", txns[*txn].session),
        })
        .collect()
}

/// Every expectation of the scenario holds.
pub fn assert_expectations(case: &TestCase, history: &History) {
    for c in txhunt_model::check(case, history) {
        assert!(
            c.passed,
            "{:?}: expected {}, observed {}",
            c.line, c.expected, c.observed
        );
    }
}

/// A blocked statement succeeds only after another transaction ended (by its COMMIT or
/// ROLLBACK, as an autocommit statement, by an error that aborted it, or by txhunt's ROLLBACK)
/// between its block point and its completion. (A waiter may also end with an error, e.g. as
/// the victim of a deadlock another statement closed, without anything released.)
pub fn assert_released_before_resumed(case: &TestCase, history: &History) {
    let txns = case.txns();
    let txn_of = case.txn_of_steps(&txns);
    let ends_a_txn = |s: usize| {
        let txn = &txns[txn_of[s]];
        let aborted_here = matches!(
            history.txns[txn.id].status,
            txhunt_model::TxnStatus::Aborted { step, .. } if step == s
        );
        !txn.explicit || txn.steps.last() == Some(&s) || aborted_here
    };
    for (b, event) in history.schedule.iter().enumerate() {
        let Event::Blocked { step } = event else {
            continue;
        };
        if !history.steps[*step].outcome.succeeded() {
            continue;
        }
        let Some(c) = history
            .schedule
            .iter()
            .position(|e| matches!(e, Event::Completed { step: s } if s == step))
        else {
            continue;
        };
        let released = history.schedule[b + 1..c].iter().any(|e| match e {
            Event::Completed { step: s } => txn_of[*s] != txn_of[*step] && ends_a_txn(*s),
            Event::Rollback { .. } => true,
            Event::Blocked { .. } => false,
        });
        assert!(
            released,
            "step {step} ({}) resumed with nothing released: {:?}",
            history.steps[*step].outcome, history.schedule
        );
    }
}

/// Every scenario file in `examples/<dir>` (sorted), parsed.
pub fn examples_in(dir: &str) -> Vec<(String, TestCase)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(dir);
    let mut paths: Vec<_> = std::fs::read_dir(&root)
        .expect("examples directory")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "sql"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let name = p.display().to_string();
            let text = std::fs::read_to_string(&p).expect("readable");
            let case = scenario::parse(&text, &name).expect("parses");
            (name, case)
        })
        .collect()
}

/// The private PostgreSQL server of this test binary, started on first use.
pub fn postgres() -> &'static dyn Target {
    static TARGET: std::sync::OnceLock<Box<dyn Target>> = std::sync::OnceLock::new();
    TARGET
        .get_or_init(|| shared_server(txhunt_db::testbed::ServerKind::Postgres))
        .as_ref()
}

/// The private MariaDB server of this test binary, started on first use.
pub fn mariadb() -> &'static dyn Target {
    static TARGET: std::sync::OnceLock<Box<dyn Target>> = std::sync::OnceLock::new();
    TARGET
        .get_or_init(|| shared_server(txhunt_db::testbed::ServerKind::Mariadb))
        .as_ref()
}

/// Starts a private server of `kind` for a whole test binary (it is killed and deleted when the
/// process exits). Fails loudly if the server cannot start.
pub fn shared_server(kind: txhunt_db::testbed::ServerKind) -> Box<dyn Target> {
    let name = kind.name();
    txhunt_db::open_target(name, None)
        .unwrap_or_else(|e| panic!("the {name} testbed server must start for these tests: {e}"))
}

/// Runs every scenario of `examples/<dir>` at every level its header names, which the target
/// must support, and checks its expectations and the release-before-resume invariant.
pub fn check_dbms_scenarios(target: &dyn Target, dir: &str) {
    for (name, case) in examples_in(dir) {
        let levels = if case.header.isolation.is_empty() {
            vec![target.profile().default_isolation()]
        } else {
            case.header.isolation.clone()
        };
        for level in levels {
            let history = execute_on(target, &case, level, Executor::default());
            for c in txhunt_model::check(&case, &history) {
                assert!(
                    c.passed,
                    "{name} at {level}: line {:?} expected {}, observed {}",
                    c.line, c.expected, c.observed
                );
            }
            assert_released_before_resumed(&case, &history);
        }
    }
}

/// Runs the portable examples at every level the target supports: every statement ends (no
/// hang, nothing left blocked), blocked statements resume only after a release, and the final
/// state is readable.
pub fn run_examples_at_every_level(target: &dyn Target) -> Vec<(String, Isolation, Vec<String>)> {
    let mut schedules = Vec::new();
    for (name, case) in examples_in("") {
        for &level in target.profile().isolation_levels() {
            let history = execute_on(target, &case, level, Executor::default());
            for (step, record) in case.steps.iter().zip(&history.steps) {
                assert!(
                    record.completed.is_some(),
                    "{name} at {level}: line {:?} did not complete: {}",
                    step.stmt.line,
                    record.outcome
                );
            }
            assert!(
                history.final_state.is_some(),
                "{name} at {level}: {:?}",
                history.final_state_error
            );
            assert_released_before_resumed(&case, &history);
            schedules.push((name.clone(), level, schedule(&case, &history)));
        }
    }
    schedules
}

/// Kills a private server while a statement runs: that statement and the later ones end with
/// `connection` errors (no panic, no hang); then a fresh server starts and works.
pub fn crash_mid_case(kind: txhunt_db::testbed::ServerKind, sleep_sql: &str) {
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};
    use txhunt_db::testbed::Server;
    use txhunt_model::{ErrorClass, Outcome};

    let server = Arc::new(Mutex::new(
        Server::start(kind, None, None).expect("the testbed server starts"),
    ));
    let url = server.lock().unwrap().url().to_string();
    let target = txhunt_db::open_target(&url, None).expect("target on the private server");
    let case = scenario::parse(
        &format!(
            "/* init */ CREATE TABLE t(k INT PRIMARY KEY);
/* t1 */ BEGIN;
/* t1 */ INSERT INTO t VALUES (1);
/* t1 */ {sleep_sql};
/* t2 */ INSERT INTO t VALUES (2);
/* t1 */ COMMIT;
"
        ),
        "crash.sql",
    )
    .expect("parses");
    let killer = {
        let server = Arc::clone(&server);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(700));
            server.lock().unwrap().kill();
        })
    };
    let started = Instant::now();
    let history = execute_on(
        target.as_ref(),
        &case,
        target.profile().default_isolation(),
        Executor::default(),
    );
    killer.join().unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "no hang after the crash"
    );
    let sleep = &history.steps[2].outcome;
    assert!(
        matches!(sleep, Outcome::Error(e) if e.class == ErrorClass::Connection),
        "the running statement sees the crash as a connection error: {sleep}"
    );
    for later in &history.steps[3..] {
        assert!(
            matches!(&later.outcome, Outcome::Error(e) if e.class == ErrorClass::Connection),
            "later statements fail with connection errors: {}",
            later.outcome
        );
    }
    assert!(history.final_state.is_none() && history.final_state_error.is_some());
    drop(target);
    drop(server);

    let fresh = Server::start(kind, None, None).expect("a fresh server starts after the crash");
    let target = txhunt_db::open_target(fresh.url(), None).expect("target on the fresh server");
    let simple = scenario::parse("/* t1 */ SELECT 1;  -- expect: rows [1]\n", "one.sql").unwrap();
    let history = execute_on(
        target.as_ref(),
        &simple,
        target.profile().default_isolation(),
        Executor::default(),
    );
    assert_expectations(&simple, &history);
}

/// A statement that neither ends nor waits on a lock within the statement timeout is a hang:
/// it is cancelled on the server (KILL QUERY / cancel request) and its session torn down,
/// long before the statement would have ended by itself.
pub fn hang_is_cancelled(target: &dyn Target, sleep_5s_sql: &str) {
    use std::time::{Duration, Instant};
    use txhunt_model::Outcome;

    let case = scenario::parse(
        &format!("/* t1 */ BEGIN;\n/* t1 */ {sleep_5s_sql};\n/* t2 */ SELECT 1;  -- expect: rows [1]\n/* t1 */ COMMIT;\n"),
        "hang.sql",
    )
    .expect("parses");
    let executor = Executor {
        statement_timeout: Duration::from_millis(500),
        ..Executor::default()
    };
    let started = Instant::now();
    let history = execute_on(
        target,
        &case,
        target.profile().default_isolation(),
        executor,
    );
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "cancelled, not waited out: {:?}",
        started.elapsed()
    );
    assert_eq!(
        history.steps[1].outcome,
        Outcome::Hang {
            after_ms: 500,
            lock_cycle: false
        }
    );
    assert!(
        matches!(&history.steps[3].outcome, Outcome::NotRun { reason } if reason.contains("torn down"))
    );
    assert_expectations(&case, &history);
}

/// A target whose lock-wait probes count the questions they answer with a lock wait: those
/// about a waiting statement (a question about a statement that is only slow on a loaded
/// machine is timing, not what the protocol decides to ask).
pub struct CountingProbes {
    pub inner: &'static dyn Target,
    pub asked: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl CountingProbes {
    pub fn new(inner: &'static dyn Target) -> Self {
        CountingProbes {
            inner,
            asked: Default::default(),
        }
    }

    /// Questions answered with a lock wait so far.
    pub fn asked(&self) -> usize {
        self.asked.load(std::sync::atomic::Ordering::SeqCst)
    }
}

impl Target for CountingProbes {
    fn name(&self) -> String {
        self.inner.name()
    }
    fn version(&self) -> String {
        self.inner.version()
    }
    fn profile(&self) -> &dyn txhunt_db::Profile {
        self.inner.profile()
    }
    fn max_sessions(&self) -> usize {
        self.inner.max_sessions()
    }
    fn deadlock_check(&self) -> txhunt_db::DeadlockCheck {
        self.inner.deadlock_check()
    }
    fn create_database(&self) -> Result<Box<dyn txhunt_db::Database>, txhunt_db::TargetError> {
        Ok(Box::new(CountingDatabase {
            inner: self.inner.create_database()?,
            asked: std::sync::Arc::clone(&self.asked),
        }))
    }
}

struct CountingDatabase {
    inner: Box<dyn txhunt_db::Database>,
    asked: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl txhunt_db::Database for CountingDatabase {
    fn connect(
        &self,
        config: txhunt_db::SessionConfig,
        hook: Option<std::sync::Arc<dyn txhunt_db::LockWaitHook>>,
    ) -> Result<Box<dyn txhunt_db::Connection>, txhunt_db::TargetError> {
        self.inner.connect(config, hook)
    }
    fn final_state(&self) -> Result<txhunt_model::DbState, txhunt_db::TargetError> {
        self.inner.final_state()
    }
    fn lock_probe(&self) -> Option<std::sync::Arc<dyn txhunt_db::LockProbe>> {
        let inner = self.inner.lock_probe()?;
        Some(std::sync::Arc::new(CountingProbe {
            inner,
            asked: std::sync::Arc::clone(&self.asked),
        }))
    }
}

struct CountingProbe {
    inner: std::sync::Arc<dyn txhunt_db::LockProbe>,
    asked: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl txhunt_db::LockProbe for CountingProbe {
    fn is_waiting(&self, session_id: &str) -> bool {
        let waiting = self.inner.is_waiting(session_id);
        if waiting {
            self.asked.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
        waiting
    }
}

/// A case whose t2 waits for t1's row lock while t1 reads three times, then commits.
pub const WAIT_THROUGH_READS: &str = "-- id: wait-through-reads
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);
/* init */ INSERT INTO t VALUES (1, 0), (2, 0);
/* t1 */ BEGIN;
/* t1 */ UPDATE t SET v = 1 WHERE k = 1;
/* t2 */ BEGIN;
/* t2 */ UPDATE t SET v = 2 WHERE k = 1;
/* t1 */ SELECT v FROM t WHERE k = 2;
/* t1 */ SELECT v FROM t WHERE k = 2;
/* t1 */ SELECT v FROM t WHERE k = 2;
/* t1 */ COMMIT;
/* t2 */ COMMIT;
";

/// Runs [`WAIT_THROUGH_READS`] on `target` at `level`: how many probe questions it took.
/// t2's UPDATE must wait, and resume right after t1's COMMIT.
pub fn probes_waiting_through_reads(target: &'static dyn Target, level: Isolation) -> usize {
    let case = scenario::parse(WAIT_THROUGH_READS, "wait-through-reads").expect("parses");
    let counting = CountingProbes::new(target);
    let history = execute_on(&counting, &case, level, Executor::default());
    assert_eq!(
        schedule(&case, &history),
        ["C4", "C5", "C6", "B7", "C8", "C9", "C10", "C11", "C7", "C12"],
        "at {level:?}"
    );
    counting.asked()
}
