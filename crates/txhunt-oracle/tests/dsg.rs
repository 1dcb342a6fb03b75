//! Adya's phenomena in instrumented runs on real engines: each scenario of
//! `tests/instrumented/` shows exactly the phenomena its engine and level let through.

use std::path::Path;
use txhunt_db::open_target;
use txhunt_exec::{Executor, TargetRunner};
use txhunt_model::adya::Phenomenon;
use txhunt_model::{scenario, Isolation, TestCase};
use txhunt_oracle::dsg::analyse;

fn scenario_named(name: &str) -> TestCase {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/instrumented")
        .join(name);
    scenario::parse(&std::fs::read_to_string(&path).unwrap(), name).unwrap()
}

/// The phenomena of `scenario` on a fresh `target` at `level`, and their explanations.
fn phenomena(scenario: &str, target: &str, level: Isolation) -> (Vec<Phenomenon>, Vec<String>) {
    phenomena_of(&scenario_named(scenario), target, level)
}

/// The phenomena of `case` on a fresh `target` at `level`, and their explanations.
fn phenomena_of(case: &TestCase, target: &str, level: Isolation) -> (Vec<Phenomenon>, Vec<String>) {
    let target = open_target(target, None).expect("the target opens");
    let executor = Executor {
        instrument: true,
        ..Executor::default()
    };
    let history = executor.execute(target.as_ref(), case, level).unwrap();
    let runner = TargetRunner {
        executor,
        target: target.as_ref(),
    };
    let analysis = analyse(case, &history, &runner);
    let found = &analysis.anomalies;
    let lines = found
        .iter()
        .flat_map(|a| a.explain(&analysis.txns))
        .collect();
    (found.iter().map(|a| a.class).collect(), lines)
}

#[test]
fn a_lost_update_is_g_single_where_the_level_lets_it_through() {
    let (classes, lines) = phenomena("lost-update.sql", "mariadb", Isolation::RepeatableRead);
    assert_eq!(classes, [Phenomenon::GSingle]);
    assert_eq!(
        lines,
        [
            "t2 -rw-> t1 on t(k=1) (version init2, step 4)",
            "t1 -ww-> t2 on t(k=1) (version #5, step 7)"
        ]
    );
    // PostgreSQL's REPEATABLE READ refuses t2's update: nothing to see.
    assert_eq!(
        phenomena("lost-update.sql", "postgres", Isolation::RepeatableRead).0,
        []
    );
}

#[test]
fn write_skew_is_g2_item_not_g_single() {
    let (classes, lines) = phenomena("write-skew.sql", "postgres", Isolation::RepeatableRead);
    assert_eq!(classes, [Phenomenon::G2Item], "{lines:#?}");
    assert!(lines.iter().all(|l| l.contains(" -rw-> ")), "{lines:#?}");
}

#[test]
fn a_dirty_read_of_a_rolled_back_write_is_g1a() {
    let (classes, lines) = phenomena("dirty-read.sql", "sqlite", Isolation::ReadUncommitted);
    assert_eq!(classes, [Phenomenon::G1a]);
    assert_eq!(lines, ["t1 -wr-> t2 on t(k=1) (version #2, step 3)"]);
}

#[test]
fn a_phantom_is_a_g_single_on_a_predicate() {
    let (classes, lines) = phenomena("phantom-insert.sql", "postgres", Isolation::ReadCommitted);
    assert_eq!(classes, [Phenomenon::GSingle], "{lines:#?}");
    assert_eq!(
        lines,
        [
            "t1 -rw-> t2 on predicate `t WHERE v > 5`, row t(k=2) (version #3, step 2)",
            "t2 -wr-> t1 on t(k=2) (version #3, step 4)"
        ]
    );
    // At REPEATABLE READ the second read sees t1's snapshot: no cycle.
    let (classes, lines) = phenomena("phantom-insert.sql", "postgres", Isolation::RepeatableRead);
    assert_eq!(classes, [], "{lines:#?}");
}

#[test]
fn an_insert_the_predicate_does_not_match_is_no_dependency() {
    // t2's row (2, 1) does not match `v > 5`: t1's first read did not miss it, and t1's read
    // of it by key afterwards closes no cycle. The target decides the match.
    let text = "/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);
/* init */ INSERT INTO t VALUES (1, 10);
/* t1 */ BEGIN;
/* t1 */ SELECT k FROM t WHERE v > 5;
/* t2 */ INSERT INTO t VALUES (2, 1);
/* t1 */ SELECT v FROM t WHERE k = 2;
/* t1 */ COMMIT;
";
    let case = scenario::parse(text, "inline").unwrap();
    for target in ["postgres", "sqlite"] {
        let level = if target == "sqlite" {
            Isolation::ReadUncommitted
        } else {
            Isolation::ReadCommitted
        };
        let (classes, lines) = phenomena_of(&case, target, level);
        assert_eq!(classes, [], "{target}: {lines:#?}");
    }
    let matching = text.replace("(2, 1)", "(2, 6)");
    let case = scenario::parse(&matching, "inline").unwrap();
    let (classes, lines) = phenomena_of(&case, "postgres", Isolation::ReadCommitted);
    assert_eq!(classes, [Phenomenon::GSingle], "{lines:#?}");
}

#[test]
fn a_phantom_between_foreign_keys_is_still_judged() {
    // Whether t2's row matches `v > 5` is asked of the target with that row alone in `t`:
    // neither `t`'s parent row in `p` nor its child row in `c` may stand in the way.
    let text = "/* init */ CREATE TABLE p(id INT PRIMARY KEY);
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT, p INT, FOREIGN KEY (p) REFERENCES p(id));
/* init */ CREATE TABLE c(id INT PRIMARY KEY, k INT, FOREIGN KEY (k) REFERENCES t(k));
/* init */ INSERT INTO p VALUES (1);
/* init */ INSERT INTO t VALUES (1, 10, 1);
/* init */ INSERT INTO c VALUES (1, 1);
/* t1 */ BEGIN;
/* t1 */ SELECT k FROM t WHERE v > 5;
/* t2 */ INSERT INTO t VALUES (2, 20, 1);
/* t1 */ SELECT k FROM t WHERE v > 5;
/* t1 */ COMMIT;
";
    let case = scenario::parse(text, "inline").unwrap();
    for target in ["mariadb", "postgres"] {
        let (classes, lines) = phenomena_of(&case, target, Isolation::ReadCommitted);
        assert_eq!(classes, [Phenomenon::GSingle], "{target}: {lines:#?}");
        assert!(
            lines[0].contains("on predicate `t WHERE v > 5`"),
            "{lines:#?}"
        );
    }
}

#[test]
fn serial_enough_runs_show_nothing() {
    for (scenario, level) in [
        ("lost-update.sql", Isolation::Serializable),
        ("predicate-delete.sql", Isolation::Serializable),
        ("phantom-insert.sql", Isolation::Serializable),
    ] {
        assert_eq!(phenomena(scenario, "sqlite", level).0, [], "{scenario}");
    }
}

/// No phenomenon in `n` generated cases run on `target` at SERIALIZABLE.
fn serializable_runs_show_no_phenomenon(target: &str, n: u64) {
    let target = open_target(target, None).expect("the target opens");
    let executor = Executor {
        instrument: true,
        ..Executor::default()
    };
    let level = Isolation::Serializable;
    let dialect = txhunt_sql::dialect::for_family(target.profile().family());
    for seed in 0..n {
        let case = txhunt_sql::generate(seed, &Default::default(), dialect, level, None).case;
        let history = executor.execute(target.as_ref(), &case, level).unwrap();
        let runner = TargetRunner {
            executor,
            target: target.as_ref(),
        };
        let analysis = analyse(&case, &history, &runner);
        let found = &analysis.anomalies;
        assert!(
            found.is_empty() && analysis.unknown.is_empty(),
            "seed {seed}: {:?} {:#?}\n{}",
            found.iter().map(|a| a.class).collect::<Vec<_>>(),
            found
                .iter()
                .map(|a| a.explain(&analysis.txns))
                .collect::<Vec<_>>(),
            scenario::print(&case)
        );
    }
}

#[test]
fn sqlite_serializable_runs_of_generated_cases_show_no_phenomenon() {
    serializable_runs_show_no_phenomenon("sqlite", 150);
}

#[test]
fn postgres_serializable_runs_of_generated_cases_show_no_phenomenon() {
    serializable_runs_show_no_phenomenon("postgres", 40);
}

#[test]
fn mariadb_serializable_runs_of_generated_cases_show_no_phenomenon() {
    serializable_runs_show_no_phenomenon("mariadb", 40);
}

/// `history` with `reader`'s read of the row `writer` wrote changed to the version `writer`
/// overwrote: as if `reader` had not seen that write.
fn unsee(history: &mut txhunt_model::History, reader: usize, writer: usize) {
    let write = history.steps[writer].accesses.as_ref().unwrap().writes[0].clone();
    let reads = &mut history.steps[reader].accesses.as_mut().unwrap().reads;
    let read = reads.iter_mut().find(|r| r.row == write.row).unwrap();
    read.version = write.overwrote;
}

/// The G-single of `case` run on SQLite with step `reader`'s read of the row step `writer`
/// wrote made to miss that write: whether it lies within one statement, and its explanation.
fn g_single_unseeing(case: &str, reader: usize, writer: usize) -> (Option<usize>, Vec<String>) {
    let case = scenario::parse(case, "unseeing").unwrap();
    let target = open_target("sqlite", None).expect("the target opens");
    let executor = Executor {
        instrument: true,
        ..Executor::default()
    };
    let level = Isolation::Serializable;
    let mut history = executor.execute(target.as_ref(), &case, level).unwrap();
    let runner = TargetRunner {
        executor,
        target: target.as_ref(),
    };
    assert!(analyse(&case, &history, &runner).anomalies.is_empty());
    unsee(&mut history, reader, writer);
    let analysis = analyse(&case, &history, &runner);
    let classes: Vec<Phenomenon> = analysis.anomalies.iter().map(|a| a.class).collect();
    assert_eq!(classes, [Phenomenon::GSingle]);
    let anomaly = &analysis.anomalies[0];
    (anomaly.within_statement, anomaly.explain(&analysis.txns))
}

/// The schema and rows the within-one-statement scenarios start from.
const TWO_ROWS: &str = "/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);
    /* init */ INSERT INTO t VALUES (1, 10), (2, 20);";

/// A scenario after [`TWO_ROWS`], the step whose read is made to miss a write, the step that
/// wrote it, the statement the G-single lies within and its explanation.
type Unseeing = (
    &'static str,
    usize,
    usize,
    Option<usize>,
    &'static [&'static str],
);

#[test]
fn a_read_skew_is_within_one_statement_only_where_one_select_read_both_sides() {
    let scenarios: [Unseeing; 4] = [
        // t2's one SELECT misses t1's write of k=1 but sees t1's write of k=2.
        (
            "/* t1 */ BEGIN;
            /* t1 */ UPDATE t SET v = 11 WHERE k = 1;
            /* t1 */ UPDATE t SET v = 21 WHERE k = 2;
            /* t1 */ COMMIT;
            /* t2 */ SELECT k, v FROM t;",
            4,
            1,
            Some(4),
            &[
                "t2 -rw-> t1 on t(k=1) (version init2, step 5)",
                "t1 -wr-> t2 on t(k=2) (version #3, step 5)",
            ],
        ),
        // t2 read t1's k=1, then wrote k=2; t3's one SELECT sees t2's k=2, misses t1's k=1.
        (
            "/* t1 */ UPDATE t SET v = 11 WHERE k = 1;
            /* t2 */ BEGIN;
            /* t2 */ SELECT v FROM t WHERE k = 1;
            /* t2 */ UPDATE t SET v = 21 WHERE k = 2;
            /* t2 */ COMMIT;
            /* t3 */ SELECT k, v FROM t;",
            5,
            0,
            Some(5),
            &[
                "t3 -rw-> t1 on t(k=1) (version init2, step 6)",
                "t1 -wr-> t2 on t(k=1) (version #1, step 3)",
                "t2 -wr-> t3 on t(k=2) (version #4, step 6)",
            ],
        ),
        // The same, but t2's SELECT read k=1 in a subquery: a version-set read, after it.
        (
            "/* t1 */ BEGIN;
            /* t1 */ UPDATE t SET v = 11 WHERE k = 1;
            /* t1 */ UPDATE t SET v = 21 WHERE k = 2;
            /* t1 */ COMMIT;
            /* t2 */ SELECT v FROM t WHERE k IN (SELECT k + 1 FROM t WHERE k = 1);",
            4,
            1,
            None,
            &[
                "t2 -rw-> t1 on t(k=1) (version init2, step 5)",
                "t1 -wr-> t2 on t(k=2) (version #3, step 5)",
            ],
        ),
        // The same skew as the first, across two SELECTs of t2.
        (
            "/* t1 */ BEGIN;
            /* t1 */ UPDATE t SET v = 11 WHERE k = 1;
            /* t1 */ UPDATE t SET v = 21 WHERE k = 2;
            /* t1 */ COMMIT;
            /* t2 */ BEGIN;
            /* t2 */ SELECT v FROM t WHERE k = 1;
            /* t2 */ SELECT v FROM t WHERE k = 2;
            /* t2 */ COMMIT;",
            5,
            1,
            None,
            &[
                "t2 -rw-> t1 on t(k=1) (version init2, step 6)",
                "t1 -wr-> t2 on t(k=2) (version #3, step 7)",
            ],
        ),
    ];
    for (steps, reader, writer, within, lines) in scenarios {
        let case = format!("{TWO_ROWS}\n{steps}");
        let found = g_single_unseeing(&case, reader, writer);
        assert_eq!(
            found,
            (within, lines.iter().map(|l| l.to_string()).collect()),
            "{steps}"
        );
    }
}
