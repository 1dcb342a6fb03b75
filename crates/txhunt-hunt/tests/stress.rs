//! Stress runs on real engines: truly concurrent sessions, the whole history judged by the
//! DSG oracle and the workload's invariant.

use std::sync::atomic::AtomicBool;
use std::time::Duration;
use txhunt_db::{open_target, Target};
use txhunt_exec::stress::{Counters, StressRun};
use txhunt_exec::Executor;
use txhunt_hunt::stress::{Report, Stress};
use txhunt_model::{Isolation, Outcome, Value};
use txhunt_oracle::invariant;
use txhunt_sql::gen::workload::Workload;

fn stress(workload: Workload, isolation: Isolation, seconds: u64) -> Stress {
    Stress {
        workload,
        sessions: 4,
        duration: Duration::from_secs(seconds),
        isolation,
        mode: None,
        seed: 1,
        keys: 4,
    }
}

/// Runs `stress` on `target`, recorded, and judges it.
fn stressed(stress: &Stress, target: &dyn Target) -> (StressRun, Report) {
    let executor = Executor::default();
    let run = stress
        .run(
            &executor,
            target,
            true,
            &Counters::default(),
            &AtomicBool::new(false),
        )
        .expect("runs");
    let report = stress.judge(&executor, target, &run);
    (run, report)
}

#[test]
fn serializable_sqlite_keeps_every_workloads_invariant_and_shows_no_phenomenon() {
    let target = open_target("sqlite", None).unwrap();
    for workload in Workload::ALL {
        let (run, report) = stressed(
            &stress(workload, Isolation::Serializable, 2),
            target.as_ref(),
        );
        eprintln!(
            "{workload}: committed {} statements {} run {:.2}s check {:.2}s",
            report.committed, report.statements, report.seconds, report.check_seconds
        );
        assert!(report.committed > 20, "{workload}: {report:#?}");
        assert_eq!(run.case.steps.len() as u64, report.statements);
        assert!(report.candidates.is_empty(), "{workload}: {report:#?}");
        assert!(report.allowed.is_empty(), "{workload}: {report:#?}");
        assert!(report.unjudged.is_empty(), "{workload}: {report:#?}");
        // Sessions overlapped: intervals of different sessions interleave.
        let overlaps = (run.intervals.windows(2).zip(run.case.steps.windows(2)))
            .filter(|(i, s)| s[0].session != s[1].session && i[1].invoked < i[0].completed)
            .count();
        assert!(
            overlaps > 0,
            "{workload}: no two sessions' statements overlapped"
        );
    }
}

#[test]
fn a_broken_invariant_is_a_candidate_at_every_level() {
    let target = open_target("sqlite", None).unwrap();
    let bank = stress(Workload::Bank, Isolation::Serializable, 1);
    let (mut run, _) = stressed(&bank, target.as_ref());
    let guarantee = target.profile().guarantee(Isolation::Serializable);
    assert!(invariant::check(Workload::Bank, &run.case, &run.history, guarantee).is_empty());
    // Money appears in one account of the final state.
    let state = run.history.final_state.as_mut().unwrap();
    let mut rows = state.table("bank").unwrap().to_vec();
    rows[0][1] = Value::Int(1_000_000);
    state.insert("bank", rows);
    let found = invariant::check(Workload::Bank, &run.case, &run.history, guarantee);
    assert_eq!(
        found.iter().map(|v| v.invariant).collect::<Vec<_>>(),
        ["total-changed"]
    );
    assert!(found[0].allowed.is_none());

    let lists = stress(Workload::ListAppend, Isolation::Serializable, 1);
    let (mut run, _) = stressed(&lists, target.as_ref());
    // A committed read that saw an element the list never held.
    let read = (run.case.steps.iter().enumerate())
        .position(|(s, step)| {
            step.stmt.sql.starts_with("SELECT")
                && matches!(&run.history.steps[s].outcome, Outcome::Rows { rows, .. } if !rows.is_empty())
                && run.history.txns[run.case.txn_of_steps(&run.case.txns())[s]].status.committed()
        })
        .expect("a committed read of a list");
    if let Outcome::Rows { rows, .. } = &mut run.history.steps[read].outcome {
        rows[0][0] = Value::Text(",999999999".into());
    }
    let found = invariant::check(Workload::ListAppend, &run.case, &run.history, guarantee);
    assert_eq!(
        found.iter().map(|v| v.invariant).collect::<Vec<_>>(),
        ["read-not-a-prefix"]
    );
    assert!(
        found[0].allowed.is_none(),
        "G1a is forbidden at SERIALIZABLE"
    );
}
