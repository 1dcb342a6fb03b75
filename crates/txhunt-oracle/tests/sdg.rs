//! The SDG oracle (TxCheck) on real engines: the paper's dependency examples
//! (`examples/sdg/`, Figure 3) give the graph and sequential order the paper gives and no
//! difference; a run whose read returned what no order explains is reported; serial runs of
//! generated cases never fire.

use std::path::Path;
use txhunt_db::{open_target, Target};
use txhunt_exec::{Executor, TargetRunner};
use txhunt_model::{scenario, History, Isolation, Outcome, TestCase, Value};
use txhunt_oracle::sdg::{judge, label_steps as labels, Graph, Verdict};
use txhunt_oracle::{Divergence, Signature};

const TARGETS: [(&str, Isolation); 3] = [
    ("sqlite", Isolation::Serializable),
    ("postgres", Isolation::ReadCommitted),
    ("mariadb", Isolation::RepeatableRead),
];

fn executor() -> Executor {
    Executor {
        instrument: true,
        ..Executor::default()
    }
}

/// `case` run instrumented on `target`, and the oracle's verdict.
fn verdict(case: &TestCase, target: &dyn Target, level: Isolation) -> (History, Verdict) {
    let history = executor().execute(target, case, level).unwrap();
    let runner = TargetRunner {
        executor: executor(),
        target,
    };
    let verdict = judge(case, &history, &runner).unwrap_or_else(|e| panic!("{}", e.reason));
    (history, verdict)
}

fn header<'a>(case: &'a TestCase, key: &str) -> Option<&'a str> {
    (case.header.extra.iter())
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

#[test]
fn the_papers_dependency_examples_give_its_edges_and_orders_and_no_difference() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/sdg");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sql"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 7, "Figure 3 (a)–(g)");
    for (name, level) in TARGETS {
        let target = open_target(name, None).expect("the target opens");
        for path in &files {
            let text = std::fs::read_to_string(path).unwrap();
            let case = scenario::parse(&text, &path.display().to_string()).unwrap();
            let (history, verdict) = verdict(&case, target.as_ref(), level);
            let labels = labels(&case);
            let at = format!("{name}, {}", path.display());
            assert!(verdict.findings.is_empty(), "{at}: {:#?}", verdict.findings);
            let order: Vec<&str> = verdict.order.iter().map(|&s| labels[s].as_str()).collect();
            assert_eq!(
                order.join(" → "),
                header(&case, "sdg-order").unwrap(),
                "{at}"
            );
            if let Some(edge) = header(&case, "sdg-edge") {
                let graph = Graph::build(&case, &history);
                let edges: Vec<String> = (graph.edges.iter())
                    .map(|e| format!("{} -{}-> {}", labels[e.from], e.kind.name(), labels[e.to]))
                    .collect();
                assert!(edges.iter().any(|e| e == edge), "{at}: {edges:?}");
            }
        }
    }
}

#[test]
fn a_read_no_sequential_order_explains_is_a_bug_candidate() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/sdg/a-item-read.sql");
    let case = scenario::parse(&std::fs::read_to_string(&path).unwrap(), "a").unwrap();
    for (name, level) in TARGETS {
        let target = open_target(name, None).expect("the target opens");
        let mut history = executor().execute(target.as_ref(), &case, level).unwrap();
        // As if the engine had returned the row's value from before the update it read:
        // the read's recorded version is t1's, its result the initial one.
        let select = (case.steps.iter())
            .position(|s| s.stmt.sql.starts_with("SELECT"))
            .unwrap();
        let Outcome::Rows { rows, .. } = &mut history.steps[select].outcome else {
            panic!("{name}: the select returned rows");
        };
        rows[0][1] = Value::Int(0);
        let runner = TargetRunner {
            executor: executor(),
            target: target.as_ref(),
        };
        let found = judge(&case, &history, &runner).unwrap().findings;
        assert_eq!(found.len(), 1, "{name}: {found:#?}");
        assert_eq!(found[0].signature, Signature::Sdg(Divergence::Read));
        assert!(found[0].is_candidate(), "{name}");
        assert_eq!(found[0].steps, [select], "{name}");
    }
}

#[test]
fn serial_runs_of_generated_cases_never_fire() {
    for (name, level) in TARGETS {
        let target = open_target(name, None).expect("the target opens");
        let dialect = txhunt_sql::dialect::for_family(target.profile().family());
        let config = txhunt_sql::gen::GenConfig {
            instrumentable: true,
            ..Default::default()
        };
        let mut judged = 0;
        for seed in 0..30 {
            let case = serial(txhunt_sql::generate(seed, &config, dialect, level, None).case);
            let history = executor().execute(target.as_ref(), &case, level).unwrap();
            let runner = TargetRunner {
                executor: executor(),
                target: target.as_ref(),
            };
            if let Ok(verdict) = judge(&case, &history, &runner) {
                judged += 1;
                assert!(
                    verdict.findings.is_empty(),
                    "{name} seed {seed}: {:#?}",
                    verdict.findings
                );
            }
        }
        assert!(
            judged >= 15,
            "{name}: only {judged} of 30 serial cases judged"
        );
    }
}

/// `case` with each transaction's statements together, transactions in the order they start.
fn serial(mut case: TestCase) -> TestCase {
    let steps = case.steps.clone();
    case.steps = (case.txns().iter())
        .flat_map(|t| t.steps.iter().map(|&s| steps[s].clone()))
        .collect();
    case
}
