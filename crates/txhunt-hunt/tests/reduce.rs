//! Reduction on real engines: a finding padded with unrelated tables, rows, transactions and
//! statements comes back to the minimal scenario that gives it.

use std::sync::atomic::AtomicBool;
use std::time::Duration;
use txhunt_db::{open_target, Target};
use txhunt_exec::Executor;
use txhunt_hunt::reduce::{reduce, Goal, Reduction};
use txhunt_hunt::Judge;
use txhunt_model::{scenario, Isolation, TestCase};
use txhunt_oracle::OracleId;

fn case(text: &str) -> TestCase {
    scenario::parse(text, "padded").expect("parses")
}

/// The statements of `case`, setup first, as `session: SQL` lines.
fn lines(case: &TestCase) -> Vec<String> {
    (case.init.iter().map(|s| format!("init: {}", s.sql)))
        .chain((case.steps.iter()).map(|s| format!("{}: {}", s.session, s.stmt.sql)))
        .collect()
}

/// SQLite's SERIALIZABLE and the WSS finding of a random value's INSERT.
const SERIALIZABLE_WSS: (Isolation, (OracleId, &str)) = (
    Isolation::Serializable,
    (OracleId::Wss, "tx-wss:final-state"),
);

/// The reduction of `padded`, run at `level` on `targets`, judged by `oracle` (with
/// `explicit`), keeping its finding `signature` (a permissible one too when `permissible`).
fn reduced(
    padded: &str,
    targets: &[&dyn Target],
    level: Isolation,
    (oracle, signature): (OracleId, &str),
    permissible: bool,
) -> Reduction {
    let judge = Judge {
        executor: Executor::default(),
        oracles: txhunt_oracle::by_names(&format!("explicit,{oracle}")).unwrap(),
    };
    let goal = Goal {
        oracle,
        signature: signature.into(),
        permissible,
    };
    let reduction = reduce(
        &case(padded),
        &judge,
        targets,
        level,
        &goal,
        Duration::from_secs(300),
        &AtomicBool::new(false),
    )
    .expect("reproduces");
    assert_eq!(reduction.flaky, None);
    assert!(!reduction.out_of_time, "{:#?}", reduction.log);
    reduction
}

/// Asserts that `padded` reduces (as [`reduced`] does it) to `minimal`, as [`lines`] prints
/// it, with `transactions` before and after; returns the reduction.
fn assert_reduces(
    padded: &str,
    targets: &[&dyn Target],
    (level, finding, permissible): (Isolation, (OracleId, &str), bool),
    minimal: &[&str],
    transactions: (usize, usize),
) -> Reduction {
    let reduction = reduced(padded, targets, level, finding, permissible);
    assert_eq!(lines(&reduction.case), minimal, "{:#?}", reduction.log);
    assert_eq!(reduction.transactions, transactions);
    reduction
}

#[test]
fn a_padded_sqlite_wss_finding_reduces_to_its_minimal_scenario() {
    // The INSERT of a random value: no serial schedule reproduces the final state.
    let padded = "/* init */ CREATE TABLE t(v REAL);
         /* init */ CREATE TABLE pad(k INT PRIMARY KEY, w INT);
         /* init */ INSERT INTO pad VALUES (1, 1), (2, 2), (3, 3);
         /* t1 */ BEGIN;
         /* t1 */ UPDATE pad SET w = w + 1 WHERE k = 1;
         /* t1 */ SELECT * FROM pad;
         /* t1 */ COMMIT;
         /* t2 */ INSERT INTO t SELECT random();
         /* t3 */ BEGIN;
         /* t3 */ DELETE FROM pad WHERE k = 3;
         /* t3 */ ROLLBACK;
         /* t1 */ SELECT count(*) FROM pad;
        ";
    let sqlite = open_target("sqlite", None).unwrap();
    let reduction = assert_reduces(
        padded,
        &[sqlite.as_ref()],
        (SERIALIZABLE_WSS.0, SERIALIZABLE_WSS.1, false),
        &[
            "init: CREATE TABLE t(k REAL)",
            "t2: INSERT INTO t SELECT random()",
        ],
        (4, 1),
    );
    assert_eq!(reduction.statements, (12, 2));
    assert!(reduction.log.iter().any(|a| a.reproduced));
    assert!(reduction.log.iter().any(|a| !a.reproduced));
}

#[test]
fn a_column_only_inserts_name_goes_from_the_table_and_the_inserts() {
    let padded = "/* init */ CREATE TABLE t(v REAL, w TEXT);
         /* init */ INSERT INTO t VALUES (1.5, 'a');
         /* t1 */ INSERT INTO t (v, w) VALUES (random(), 'b');
        ";
    let sqlite = open_target("sqlite", None).unwrap();
    assert_reduces(
        padded,
        &[sqlite.as_ref()],
        (SERIALIZABLE_WSS.0, SERIALIZABLE_WSS.1, false),
        &[
            "init: CREATE TABLE t (k REAL)",
            "t1: INSERT INTO t (k) VALUES (random())",
        ],
        (1, 1),
    );
}

#[test]
fn a_padded_postgres_wss_finding_reduces_to_its_minimal_scenario() {
    // tests/wss/postgres-rr-insert-after-concurrent-delete.sql, with an unrelated table, rows,
    // a transaction and statements added.
    let padded = "/* init */ CREATE TABLE t0(a0 INT PRIMARY KEY);
         /* init */ CREATE TABLE t2(c0 INT PRIMARY KEY);
         /* init */ CREATE TABLE pad(k INT PRIMARY KEY);
         /* init */ INSERT INTO t2 VALUES (-17);
         /* init */ INSERT INTO pad VALUES (1), (2);
         /* t1 */ BEGIN;
         /* t4 */ BEGIN;
         /* t4 */ SELECT count(*) FROM t0;
         /* t3 */ BEGIN;
         /* t3 */ UPDATE pad SET k = k + 10 WHERE k = 2;
         /* t1 */ INSERT INTO t0 VALUES (1);
         /* t1 */ DELETE FROM t2 WHERE c0 = -17;
         /* t4 */ INSERT INTO t2 VALUES (-17) ON CONFLICT DO NOTHING;
         /* t3 */ COMMIT;
         /* t1 */ SELECT * FROM pad;
         /* t1 */ COMMIT;
         /* t4 */ DELETE FROM t0;
         /* t4 */ SELECT c0 FROM t2;
         /* t4 */ COMMIT;
        ";
    let postgres = open_target("postgres", None).expect("the PostgreSQL testbed starts");
    assert_reduces(
        padded,
        &[postgres.as_ref()],
        (
            Isolation::RepeatableRead,
            (OracleId::Wss, "tx-wss:final-state"),
            false,
        ),
        &[
            "init: CREATE TABLE t(k INT PRIMARY KEY)",
            "init: CREATE TABLE t2(v INT PRIMARY KEY)",
            "init: INSERT INTO t2 VALUES (-1)",
            "t1: BEGIN",
            "t4: BEGIN",
            "t1: INSERT INTO t VALUES (1)",
            "t1: DELETE FROM t2",
            "t4: INSERT INTO t2 VALUES (-1) ON CONFLICT DO NOTHING",
            "t1: COMMIT",
            "t4: DELETE FROM t",
            "t4: COMMIT",
        ],
        (3, 2),
    );
}

#[test]
fn a_padded_mariadb_wss_finding_reduces_to_its_minimal_scenario() {
    // tests/wss/mariadb-pk-update-then-delete.sql (MDEV-27992, committing), with an unrelated
    // table, column, rows, a transaction and statements added.
    let padded = "/* init */ CREATE TABLE t(c1 INT PRIMARY KEY, c2 INT, c3 TEXT);
         /* init */ CREATE TABLE pad(k INT PRIMARY KEY, w INT, u TEXT);
         /* init */ INSERT INTO t(c1, c3) VALUES (8, 'x');
         /* init */ INSERT INTO pad VALUES (1, 1, 'a'), (2, 2, 'b'), (3, 3, NULL);
         /* t1 */ BEGIN;
         /* t3 */ BEGIN;
         /* t2 */ BEGIN;
         /* t3 */ SELECT * FROM pad WHERE k BETWEEN 1 AND 2;
         /* t1 */ UPDATE t SET c1 = 5, c2 = 5;
         /* t2 */ DELETE FROM t;
         /* t3 */ UPDATE pad SET w = w + 1 WHERE k = 2;
         /* t1 */ UPDATE t SET c1 = 3;
         /* t1 */ COMMIT;
         /* t3 */ COMMIT;
         /* t2 */ COMMIT;
        ";
    let mariadb = open_target("mariadb", None).expect("the MariaDB testbed starts");
    assert_reduces(
        padded,
        &[mariadb.as_ref()],
        (
            Isolation::ReadCommitted,
            (OracleId::Wss, "tx-wss:final-state"),
            false,
        ),
        &[
            "init: CREATE TABLE t (k INT PRIMARY KEY, v INT)",
            "init: INSERT INTO t (k) VALUES (3)",
            "t1: BEGIN",
            "t1: UPDATE t SET v = 2",
            "t2: DELETE FROM t",
            "t1: UPDATE t SET k = 1",
            "t1: COMMIT",
        ],
        (3, 2),
    );
}

#[test]
fn a_padded_postgres_dsg_finding_reduces_to_its_minimal_scenario() {
    // Hermitage's write skew (G2-item), allowed at REPEATABLE READ, padded.
    let padded = "/* init */ CREATE TABLE test (id INT PRIMARY KEY, value INT, note TEXT);
         /* init */ CREATE TABLE pad (k INT PRIMARY KEY);
         /* init */ INSERT INTO test (id, value, note) VALUES (1, 10, 'x'), (2, 20, 'y'), (3, 30, NULL);
         /* init */ INSERT INTO pad VALUES (1), (2);
         /* t1 */ BEGIN;
         /* t2 */ BEGIN;
         /* t3 */ BEGIN;
         /* t1 */ SELECT * FROM test WHERE id IN (1, 2);
         /* t3 */ UPDATE pad SET k = k + 10;
         /* t2 */ SELECT * FROM test WHERE id IN (1, 2);
         /* t1 */ UPDATE test SET value = 11 WHERE id = 1;
         /* t3 */ COMMIT;
         /* t2 */ UPDATE test SET value = 21 WHERE id = 2;
         /* t1 */ COMMIT;
         /* t2 */ SELECT count(*) FROM pad;
         /* t2 */ COMMIT;
        ";
    let postgres = open_target("postgres", None).expect("the PostgreSQL testbed starts");
    assert_reduces(
        padded,
        &[postgres.as_ref()],
        (
            Isolation::RepeatableRead,
            (OracleId::Dsg, "dsg:G2-item"),
            true,
        ),
        &[
            "init: CREATE TABLE t (k INT PRIMARY KEY, v INT)",
            "init: INSERT INTO t (k, v) VALUES (1, 3), (2, 5)",
            "t1: BEGIN",
            "t2: BEGIN",
            "t1: SELECT * FROM t",
            "t2: SELECT * FROM t",
            "t1: UPDATE t SET v = 4 WHERE k = 1",
            "t2: UPDATE t SET v = 6 WHERE k = 2",
            "t1: COMMIT",
            "t2: COMMIT",
        ],
        (3, 2),
    );
}

#[test]
fn a_padded_mariadb_dsg_finding_reduces_to_its_minimal_scenario() {
    // Hermitage's lost update (G-single), allowed at REPEATABLE READ by InnoDB, padded.
    let padded = "/* init */ CREATE TABLE test (id INT PRIMARY KEY, value INT, note TEXT);
         /* init */ CREATE TABLE pad (k INT PRIMARY KEY);
         /* init */ INSERT INTO test (id, value, note) VALUES (1, 10, 'x'), (2, 20, 'y');
         /* init */ INSERT INTO pad VALUES (1), (2);
         /* t1 */ BEGIN;
         /* t2 */ BEGIN;
         /* t3 */ SELECT * FROM pad;
         /* t1 */ SELECT * FROM test WHERE id = 1;
         /* t2 */ SELECT * FROM test WHERE id = 1;
         /* t1 */ UPDATE test SET value = 11 WHERE id = 1;
         /* t2 */ UPDATE test SET value = 11 WHERE id = 1;
         /* t1 */ COMMIT;
         /* t2 */ SELECT * FROM pad WHERE k = 2;
         /* t2 */ COMMIT;
        ";
    let mariadb = open_target("mariadb", None).expect("the MariaDB testbed starts");
    assert_reduces(
        padded,
        &[mariadb.as_ref()],
        (
            Isolation::RepeatableRead,
            (OracleId::Dsg, "dsg:G-single"),
            true,
        ),
        &[
            "init: CREATE TABLE t (k INT)",
            "init: INSERT INTO t (k) VALUES (1)",
            "t2: BEGIN",
            "t2: SELECT * FROM t",
            "t1: UPDATE t SET k = 2",
            "t2: UPDATE t SET k = 2",
            "t2: COMMIT",
        ],
        (3, 2),
    );
}

#[test]
fn a_padded_postgres_sdg_finding_reduces_to_its_minimal_scenario() {
    // Hermitage's PMP-write at READ COMMITTED: the waiting DELETE re-checks the row it waited
    // for (permissible), padded.
    let padded = "/* init */ CREATE TABLE test (id INT PRIMARY KEY, value INT, extra INT);
         /* init */ CREATE TABLE pad (k INT PRIMARY KEY, w INT);
         /* init */ INSERT INTO test (id, value, extra) VALUES (1, 10, 5), (2, 20, 6), (3, 50, 7);
         /* init */ INSERT INTO pad VALUES (1, 1), (2, 2);
         /* t1 */ BEGIN;
         /* t2 */ BEGIN;
         /* t3 */ SELECT w FROM pad WHERE k = 1;
         /* t1 */ UPDATE test SET value = value + 10;
         /* t2 */ DELETE FROM test WHERE value = 20;
         /* t1 */ SELECT count(*) FROM pad;
         /* t1 */ COMMIT;
         /* t2 */ SELECT * FROM test WHERE value = 20;
         /* t2 */ COMMIT;
        ";
    let postgres = open_target("postgres", None).expect("the PostgreSQL testbed starts");
    assert_reduces(
        padded,
        &[postgres.as_ref()],
        (Isolation::ReadCommitted, (OracleId::Sdg, "sdg:write"), true),
        &[
            "init: CREATE TABLE t (k INT)",
            "init: INSERT INTO t (k) VALUES (10), (20)",
            "t1: BEGIN",
            "t1: UPDATE t SET k = k + 10",
            "t2: DELETE FROM t WHERE k = 20",
            "t1: COMMIT",
        ],
        (3, 2),
    );
}

#[test]
fn a_padded_differential_finding_reduces_to_its_minimal_scenario() {
    // tests/differential/turso-savepoint-snapshot.sql (SQLite vs Turso), padded.
    let padded = "/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT, w TEXT);
         /* init */ CREATE TABLE pad(a INT);
         /* init */ INSERT INTO t VALUES (1, 0, 'x'), (7, 3, 'y');
         /* init */ INSERT INTO pad VALUES (4), (5);
         /* t3 */ BEGIN;
         /* t3 */ SELECT * FROM pad;
         /* t2 */ SAVEPOINT sp1;
         /* t1 */ UPDATE t SET v = 1 WHERE k = 1;
         /* t3 */ COMMIT;
         /* t2 */ SELECT v FROM t;
         /* t2 */ RELEASE sp1;
        ";
    let sqlite = open_target("sqlite", None).unwrap();
    let turso = open_target("turso", None).unwrap();
    assert_reduces(
        padded,
        &[sqlite.as_ref(), turso.as_ref()],
        (
            Isolation::Serializable,
            (OracleId::Differential, "result"),
            false,
        ),
        &[
            "init: CREATE TABLE t (k INT)",
            "init: INSERT INTO t VALUES (0)",
            "t2: SAVEPOINT sp1",
            "t1: UPDATE t SET k = 1",
            "t2: SELECT k FROM t",
        ],
        (5, 3),
    );
}

#[test]
fn a_padded_explicit_finding_reduces_to_its_minimal_scenario() {
    // A statement that neither ends nor waits on a lock within the statement timeout: a hang.
    let reduction = reduced_hang(
        "/* init */ CREATE TABLE pad (k INT PRIMARY KEY, w INT);
         /* init */ INSERT INTO pad VALUES (1, 1), (2, 2);
         /* t1 */ BEGIN;
         /* t1 */ UPDATE pad SET w = 3 WHERE k = 1;
         /* t2 */ SELECT pg_sleep(2);
         /* t1 */ COMMIT;
         /* t3 */ SELECT count(*) FROM pad;
        ",
        Duration::from_millis(300),
    );
    assert_eq!(
        lines(&reduction.case),
        ["t2: SELECT pg_sleep(1)"],
        "{:#?}",
        reduction.log
    );
}

/// The reduction of `padded` on PostgreSQL at READ COMMITTED, keeping its hang, judged by
/// the explicit oracle with a statement timeout of `timeout`.
fn reduced_hang(padded: &str, timeout: Duration) -> Reduction {
    let postgres = open_target("postgres", None).expect("the PostgreSQL testbed starts");
    let judge = Judge {
        executor: Executor {
            statement_timeout: timeout,
            ..Executor::default()
        },
        oracles: txhunt_oracle::by_names("explicit").unwrap(),
    };
    let goal = Goal {
        oracle: OracleId::Explicit,
        signature: "hang".into(),
        permissible: false,
    };
    reduce(
        &case(padded),
        &judge,
        &[postgres.as_ref()],
        Isolation::ReadCommitted,
        &goal,
        Duration::from_secs(300),
        &AtomicBool::new(false),
    )
    .expect("reproduces")
}

/// The statement timeouts of the changes a reduction tried, in milliseconds, each once.
fn try_timeouts(reduction: &Reduction) -> Vec<u64> {
    let mut timeouts: Vec<u64> = reduction.log.iter().map(|a| a.timeout_ms).collect();
    timeouts.dedup();
    timeouts
}

/// The hang the reduced case showed when it was confirmed, at the full timeout.
fn observed_hang_ms(reduction: &Reduction) -> Option<u64> {
    let history = reduction.observed.as_ref()?;
    history.steps.iter().find_map(|s| match s.outcome {
        txhunt_model::Outcome::Hang { after_ms, .. } => Some(after_ms),
        _ => None,
    })
}

#[test]
fn a_hang_is_reduced_with_short_tries_and_confirmed_at_the_full_timeout() {
    let reduction = reduced_hang(
        "/* t1 */ SELECT 1;
         /* t2 */ SELECT pg_sleep(8);
        ",
        Duration::from_secs(3),
    );
    assert_eq!(lines(&reduction.case), ["t2: SELECT pg_sleep(8)"]);
    assert_eq!(try_timeouts(&reduction), [2000], "{:#?}", reduction.log);
    assert_eq!(observed_hang_ms(&reduction), Some(3000));
}

#[test]
fn a_statement_only_slower_than_the_short_tries_is_reduced_again_at_the_full_timeout() {
    // pg_sleep(2.5) outlasts a short try (2 s) but not the full timeout (3 s): the search at
    // the short timeout keeps it, the confirmation does not, and the search at the full
    // timeout finds the real hang.
    let reduction = reduced_hang(
        "/* t1 */ SELECT pg_sleep(2.5);
         /* t2 */ SELECT pg_sleep(8);
        ",
        Duration::from_secs(3),
    );
    assert_eq!(lines(&reduction.case), ["t2: SELECT pg_sleep(8)"]);
    assert_eq!(
        try_timeouts(&reduction),
        [2000, 3000],
        "{:#?}",
        reduction.log
    );
    assert_eq!(observed_hang_ms(&reduction), Some(3000));
}

#[test]
fn a_finding_that_does_not_replay_every_time_is_flaky_and_not_reduced() {
    // The row is inserted when random() is positive, in the run and in the serial schedule
    // independently: the final states differ half the time. Tried until the replays split
    // (each try replays 3 times: all alike 1 time in 4; 10 tries all alike: 1 in a million).
    let padded = case(
        "/* init */ CREATE TABLE t(v INT);
         /* init */ CREATE TABLE pad(k INT);
         /* t1 */ INSERT INTO pad VALUES (1);
         /* t2 */ INSERT INTO t SELECT 1 WHERE random() > 0;
        ",
    );
    let sqlite = open_target("sqlite", None).unwrap();
    let judge = Judge {
        executor: Executor::default(),
        oracles: txhunt_oracle::by_names("explicit,wss").unwrap(),
    };
    let goal = Goal {
        oracle: OracleId::Wss,
        signature: "tx-wss:final-state".into(),
        permissible: false,
    };
    let mut flaky = None;
    for _ in 0..10 {
        let tried = reduce(
            &padded,
            &judge,
            &[sqlite.as_ref()],
            Isolation::Serializable,
            &goal,
            Duration::from_secs(30),
            &AtomicBool::new(false),
        );
        if let Ok(reduction) = tried.as_ref() {
            if reduction.flaky.is_some() {
                flaky = Some(tried.unwrap());
                break;
            }
        }
    }
    let reduction = flaky.expect("some try replays the finding only sometimes");
    let counts = reduction.flaky.unwrap();
    assert!((1..3).contains(&counts.reproduced), "{counts:?}");
    assert_eq!(counts.replays, 3);
    assert_eq!(reduction.case, padded, "a flaky finding is not reduced");
    assert_eq!(reduction.statements, (4, 4));
    assert!(reduction.log.is_empty());
}
