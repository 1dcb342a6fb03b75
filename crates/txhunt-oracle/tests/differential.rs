//! The differential oracle on real engines: the same engine twice agrees with itself, and a
//! behaviour that differs (SQLite's dirty reads at read-uncommitted) is reported in its
//! category with both sides.

use std::path::Path;
use txhunt_db::open_target;
use txhunt_db::profile::semantics::{self, Semantics};
use txhunt_exec::Executor;
use txhunt_model::{scenario, History, Isolation, TestCase};
use txhunt_oracle::{
    differential, Detail, Difference, Divergence, Finding, OracleId, Run, SerialLevel, Side,
    Signature,
};

fn run(case: &TestCase, level: Isolation) -> History {
    let sqlite = open_target("sqlite", None).unwrap();
    Executor::default()
        .execute(sqlite.as_ref(), case, level)
        .expect("runs")
}

#[test]
fn the_same_engine_twice_agrees_on_every_example() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut compared = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|x| x != "sql") {
            continue;
        }
        let name = path.display().to_string();
        let case = scenario::parse(&std::fs::read_to_string(&path).unwrap(), &name).unwrap();
        for level in [Isolation::ReadUncommitted, Isolation::Serializable] {
            let (a, b) = (run(&case, level), run(&case, level));
            let found = differential::compare(&case, &[("first", &a), ("second", &b)]);
            assert!(found.is_empty(), "{name} at {level}: {found:#?}");
            compared += 1;
        }
    }
    assert!(compared >= 12, "{compared}");
}

#[test]
fn a_dirty_read_is_an_inconsistent_result_then_nothing_else() {
    let case = scenario::parse(
        "/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);\n\
         /* init */ INSERT INTO t VALUES (1, 0);\n\
         /* t1 */ BEGIN;\n\
         /* t1 */ UPDATE t SET v = 1 WHERE k = 1;\n\
         /* t2 */ SELECT v FROM t WHERE k = 1;\n\
         /* t1 */ ROLLBACK;\n",
        "dirty.sql",
    )
    .unwrap();
    let serializable = run(&case, Isolation::Serializable);
    let uncommitted = run(&case, Isolation::ReadUncommitted);
    let found = differential::compare(
        &case,
        &[
            ("serializable", &serializable),
            ("read-uncommitted", &uncommitted),
        ],
    );
    assert_eq!(found.len(), 1, "{found:#?}");
    let f = &found[0];
    assert_eq!(
        (&f.signature, f.steps.as_slice()),
        (&Signature::Differential(Difference::Result), &[2][..])
    );
    assert_eq!(
        f.summary,
        "serializable vs read-uncommitted: inconsistent result"
    );
    let lines: Vec<String> = f.details.iter().flat_map(Detail::lines).collect();
    assert_eq!(
        lines[0],
        "serializable: t2 `SELECT v FROM t WHERE k = 1` completed: rows [(0)]"
    );
    assert!(lines[1].ends_with("completed: rows [(1)]"), "{f:#?}");
    assert!(f.is_candidate());
}

#[test]
fn a_discrepancy_the_first_target_reproduces_itself_is_nondeterministic() {
    let case = scenario::parse(
        "/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);\n\
         /* init */ INSERT INTO t VALUES (1, 0);\n\
         /* t1 */ BEGIN;\n\
         /* t1 */ UPDATE t SET v = 1 WHERE k = 1;\n\
         /* t2 */ SELECT v FROM t WHERE k = 1;\n\
         /* t1 */ ROLLBACK;\n",
        "dirty.sql",
    )
    .unwrap();
    let a = run(&case, Isolation::Serializable);
    let b = run(&case, Isolation::ReadUncommitted);
    let pair = (("a", &a), ("b", &b));
    // Each "target" keeps answering as it did: the discrepancy stands.
    let level = |target: Side| match target {
        Side::First => Isolation::Serializable,
        Side::Other => Isolation::ReadUncommitted,
    };
    let mut found = differential::compare(&case, &[pair.0, pair.1]);
    let mut reruns = 0;
    let mut same = |target: Side| {
        reruns += 1;
        Some(run(&case, level(target)))
    };
    differential::settle(&case, pair.0, pair.1, &mut found, &mut same);
    assert_eq!(reruns, 2 * differential::RERUNS);
    assert!(found[0].is_candidate());
    // A re-run of the second target that behaves as the first did: nondeterminism.
    let mut other_like_a = |target: Side| match target {
        Side::First => None,
        Side::Other => Some(run(&case, Isolation::Serializable)),
    };
    differential::settle(&case, pair.0, pair.1, &mut found, &mut other_like_a);
    let verdict = found[0].permissible.as_ref().expect("settled");
    assert_eq!(verdict.behaviour, "nondeterministic");
    assert_eq!(
        verdict.evidence,
        ["re-run 1 of b shows no discrepancy with a"]
    );
    // A re-run of the first target that behaves as the second did: the same.
    let mut found = differential::compare(&case, &[pair.0, pair.1]);
    let mut like_b = |_: Side| Some(run(&case, Isolation::ReadUncommitted));
    differential::settle(&case, pair.0, pair.1, &mut found, &mut like_b);
    let verdict = found[0].permissible.as_ref().expect("settled");
    assert_eq!(
        verdict.evidence,
        ["re-run 1 of a shows no discrepancy with b"]
    );
}

#[test]
fn a_concurrency_control_difference_is_compatibility_only_between_other_semantics_and_valid_runs() {
    // SQLite's second writer waits at SERIALIZABLE and is refused at once at read-uncommitted
    // (shared cache): two concurrency controls, as two engines would have.
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/01-writer-blocks-writer.sql");
    let case = scenario::parse(&std::fs::read_to_string(&path).unwrap(), "01.sql").unwrap();
    let waits = run(&case, Isolation::Serializable);
    let refused = run(&case, Isolation::ReadUncommitted);
    let bug = Finding::new(
        Signature::Wss(SerialLevel::Transaction, Divergence::FinalState),
        "a bug candidate in the second run".into(),
        Vec::new(),
    );
    // `None`: the run was not judged by WSS.
    let judge = |semantics: [&Semantics; 2], ja: Option<&[Finding]>, jb: Option<&[Finding]>| {
        let by = |j: Option<&[Finding]>| {
            if j.is_some() {
                &[OracleId::Wss][..]
            } else {
                &[]
            }
        };
        let a = Run {
            label: "a",
            history: &waits,
            semantics: semantics[0],
            claims: &[],
            judged_by: by(ja),
            findings: ja.unwrap_or_default(),
        };
        let b = Run {
            label: "b",
            history: &refused,
            semantics: semantics[1],
            claims: &[],
            judged_by: by(jb),
            findings: jb.unwrap_or_default(),
        };
        differential::judge(&case, a, b, &mut |_| None)
    };
    let clean: &[Finding] = &[];
    let other = [&semantics::SQLITE, &semantics::POSTGRES];
    let found = judge(other, Some(clean), Some(clean));
    assert_eq!(
        found[0].signature,
        Signature::Differential(Difference::Blocking),
        "{found:#?}"
    );
    let verdict = found[0].permissible.as_ref().expect("compatibility");
    assert_eq!(verdict.behaviour, "concurrency-control");
    assert!(verdict.evidence[0].contains("no finding"), "{verdict:?}");
    // Each side's own documentation of its concurrency control is cited.
    assert!(
        verdict
            .source
            .contains(&format!("a: {}", semantics::SQLITE.concurrency_control))
            && verdict
                .source
                .contains(&format!("b: {}", semantics::POSTGRES.concurrency_control)),
        "{}",
        verdict.source
    );
    // The same semantics claimed, not judged by WSS, or a bug candidate in either run: the
    // discrepancy stays a candidate.
    assert!(judge([&semantics::SQLITE; 2], Some(clean), Some(clean))[0].is_candidate());
    assert!(judge(other, None, Some(clean))[0].is_candidate());
    assert!(judge(other, Some(clean), Some(std::slice::from_ref(&bug)))[0].is_candidate());
}

#[test]
fn another_deadlock_victim_is_compatibility_only_where_the_documentation_leaves_the_choice_open() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/02-busy-deadlock.sql");
    let case = scenario::parse(&std::fs::read_to_string(&path).unwrap(), "02.sql").unwrap();
    let t1_victim = run(&case, Isolation::Serializable);
    // The same run with the other transaction aborted: t2's UPDATE (step 3) refused, t1's
    // (step 4) done.
    let mut t2_victim = t1_victim.clone();
    let (t2_update, t1_update) = (3, 4);
    assert!(t1_victim.steps[t1_update].outcome.error().is_some());
    t2_victim.steps[t2_update].outcome = t1_victim.steps[t1_update].outcome.clone();
    t2_victim.steps[t1_update].outcome = t1_victim.steps[t2_update].outcome.clone();
    let judge = |semantics: &Semantics| {
        let run = |label, history| Run {
            label,
            history,
            semantics,
            claims: &[],
            judged_by: &[],
            findings: &[],
        };
        differential::judge(
            &case,
            run("a", &t1_victim),
            run("b", &t2_victim),
            &mut |_| None,
        )
    };
    // SQLite states which connection gets SQLITE_BUSY: another victim is a bug candidate.
    assert!(judge(&semantics::SQLITE)[0].is_candidate());
    // PostgreSQL leaves the choice to the engine, and cites where it says so.
    let found = judge(&semantics::POSTGRES);
    let verdict = found[0].permissible.as_ref().expect("compatibility");
    assert_eq!(verdict.behaviour, "deadlock-victim");
    assert!(
        verdict.source.starts_with(semantics::POSTGRES.deadlocks),
        "{}",
        verdict.source
    );
}
