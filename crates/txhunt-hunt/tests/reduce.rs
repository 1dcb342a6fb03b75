//! Reduction on real engines: a finding padded with unrelated tables, rows, transactions and
//! statements comes back to the minimal scenario that gives it.

use std::time::Duration;
use txhunt_db::open_target;
use txhunt_exec::Executor;
use txhunt_hunt::reduce::{reduce, Goal};
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

fn wss(signature: &str) -> (Judge, Goal) {
    let judge = Judge {
        executor: Executor::default(),
        oracles: txhunt_oracle::by_names("explicit,wss").unwrap(),
    };
    let goal = Goal {
        oracle: OracleId::Wss,
        signature: signature.into(),
        permissible: false,
    };
    (judge, goal)
}

#[test]
fn a_padded_sqlite_finding_reduces_to_its_minimal_scenario() {
    // The INSERT of a random value: no serial schedule reproduces the final state.
    let padded = case(
        "/* init */ CREATE TABLE t(v REAL);
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
        ",
    );
    let sqlite = open_target("sqlite", None).unwrap();
    let (judge, goal) = wss("tx-wss:final-state");
    let level = Isolation::Serializable;
    let reduction = reduce(
        &padded,
        &judge,
        &[sqlite.as_ref()],
        level,
        &goal,
        Duration::from_secs(120),
    )
    .expect("reproduces");
    assert_eq!(reduction.flaky, None);
    assert_eq!(
        lines(&reduction.case),
        [
            "init: CREATE TABLE t(v REAL)",
            "t2: INSERT INTO t SELECT random()"
        ],
        "{:#?}",
        reduction.log
    );
    assert_eq!(reduction.statements, (12, 2));
    assert_eq!(reduction.transactions, (4, 1));
    assert!(reduction.log.iter().any(|a| a.reproduced));
    assert!(reduction.log.iter().any(|a| !a.reproduced));
}

#[test]
fn a_padded_postgres_finding_reduces_to_its_minimal_scenario() {
    // tests/wss/postgres-rr-insert-after-concurrent-delete.sql, with an unrelated table, rows,
    // a transaction and statements added.
    let padded = case(
        "/* init */ CREATE TABLE t0(a0 INT PRIMARY KEY);
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
        ",
    );
    let postgres = open_target("postgres", None).expect("the PostgreSQL testbed starts");
    let (judge, goal) = wss("tx-wss:final-state");
    let level = Isolation::RepeatableRead;
    let reduction = reduce(
        &padded,
        &judge,
        &[postgres.as_ref()],
        level,
        &goal,
        Duration::from_secs(120),
    )
    .expect("reproduces");
    let reduced = lines(&reduction.case);
    for unrelated in ["pad", "t3"] {
        assert!(
            reduced.iter().all(|l| !l.contains(unrelated)),
            "{unrelated} left in {reduced:#?}"
        );
    }
    assert!(reduction.statements.1 <= 11, "{reduced:#?}");
    assert_eq!(reduction.transactions, (3, 2));
}
