//! READ COMMITTED's evidence at the statement level: READ COMMITTED promises each statement a
//! committed state, not each transaction one serial place (and no phenomenon of G1, which the
//! DSG oracle must not find in the run either). A run whose statements give the
//! results and final state they gave when re-run one at a time, without transactions, in an
//! order their recorded dependencies allow (the SDG oracle, paper 002) is such a run: every
//! statement read one committed state, and only the transactions interleaved. That explains
//! a WSS violation, which compares whole transactions.
//!
//! A statement the SDG oracle reports as a bug candidate rules the behaviour out; one it
//! excuses (it waited for a lock and re-checked only the rows it waited for) counts, with the
//! excuse said. A run the SDG oracle cannot judge (an untracked statement, a cycle it could not
//! break) shows nothing either way.
//!
//! Decycling leaves a statement out of the order where a cycle ran through it: typically a
//! read that did not see a write of a transaction still open, while a later statement of the
//! read's own or another transaction depends on that write's absence — a sequential run,
//! where every write shows at once, has no place for it. READ COMMITTED promises such a read
//! the state committed when it started, and that is checked instead ([`committed_read`]): a
//! plain read left out is run alone after the statements of the order that had committed
//! when it started, and of its own transaction before it, and must give its result. Any
//! other statement left out shows nothing either way.

use super::NotShown;
use crate::dsg::Adya;
use crate::sdg::sequential::same_result;
use crate::sdg::sequential::Sequential;
use crate::sdg::{judge, label_steps};
use crate::Oracle;
use txhunt_exec::Runner;
use txhunt_model::{History, StmtKind, TestCase, TxnStatus};
use txhunt_sql::analysis::locks_rows;

/// The statement-level evidence for `history`, a run of `case`: re-run instrumented first
/// when it was not, and then only if every statement ends as in the run.
pub fn statement_order(
    case: &TestCase,
    history: &History,
    runner: &dyn Runner,
) -> Result<String, NotShown> {
    let rerun;
    let history = if history.tables.is_empty() {
        rerun = runner
            .run_instrumented(case, history.isolation)
            .map_err(|e| format!("the case could not run instrumented: {e}"))?;
        let strayed = (0..case.steps.len())
            .find(|&s| !same_result(&history.steps[s].outcome, &rerun.steps[s].outcome));
        if let Some(s) = strayed {
            return Err(NotShown::inconclusive(format!(
                "instrumented, the case took another path: `{}` gave {}, where the run's gave {}",
                case.steps[s].stmt.sql, rerun.steps[s].outcome, history.steps[s].outcome
            )));
        }
        &rerun
    } else {
        history
    };
    // Statement by statement is not enough where a transaction read another's uncommitted or
    // aborted writes, or took part in a cycle of them (G1): the level forbids those.
    let adya = Adya.check(case, history, runner);
    if let Some(forbidden) = adya.findings.iter().find(|f| f.permissible.is_none()) {
        return Err(format!("the run has {}", forbidden.summary).into());
    }
    let verdict = judge(case, history, runner).map_err(|not| {
        NotShown::inconclusive(format!(
            "the statement dependency graph oracle could not judge the run: {}",
            not.reason
        ))
    })?;
    let mut committed_reads = Vec::new();
    for &removed in &verdict.removed {
        let shown = committed_read(case, history, &verdict.order, removed, runner)?;
        committed_reads.push(shown);
    }
    if let Some(candidate) = verdict.findings.iter().find(|f| f.permissible.is_none()) {
        return Err(format!(
            "no order of its statements that their dependencies allow gives their results: {}",
            candidate.summary
        )
        .into());
    }
    let labels = label_steps(case);
    let order: Vec<&str> = (verdict.order.iter())
        .map(|&s| labels[s].as_str())
        .collect();
    let excused: Vec<String> = (verdict.findings.iter())
        .filter_map(|f| f.permissible.as_ref())
        .map(|p| format!("; except where {} ({})", p.evidence.join(", "), p.behaviour))
        .collect();
    let read = |r: &String| format!("; {r}");
    Ok(format!(
        "its statements give their results and final state run one at a time in the order {} that their dependencies allow{}{}",
        order.join(" → "),
        committed_reads.iter().map(read).collect::<String>(),
        excused.concat()
    ))
}

/// Shows that `step`, a statement decycling left out of `order`, read the state committed
/// when it started: it is a plain read (no locks, no writes), and run alone after the
/// statements of `order` that had committed when it was submitted in the run (and those of
/// its own transaction before it), it gives its result in the run.
fn committed_read(
    case: &TestCase,
    history: &History,
    order: &[usize],
    step: usize,
    runner: &dyn Runner,
) -> Result<String, NotShown> {
    let stmt = &case.steps[step].stmt;
    let left_out = || {
        format!(
            "the statement dependency graph was cyclic: without step {}, whose result is then not compared",
            step + 1
        )
    };
    if stmt.kind() != StmtKind::Select || locks_rows(&stmt.sql, runner.profile().family()) {
        return Err(NotShown::inconclusive(left_out()));
    }
    let started = history.steps[step]
        .submitted
        .ok_or("a statement never ran")?;
    let units = commit_units(case, history);
    let mut replay: Vec<usize> = (order.iter().copied())
        .filter(|&s| {
            let (unit, commit) = units[s];
            commit.is_some_and(|c| c < started) || (unit == units[step].0 && s < step)
        })
        .collect();
    replay.push(step);
    let sequential = Sequential::of(case, &replay);
    let ran = runner
        .run_instrumented(&sequential.case, history.isolation)
        .map_err(|e| {
            format!(
                "the committed state of step {} could not be rebuilt: {e}",
                step + 1
            )
        })?;
    let alone = &ran.steps[replay.len() - 1].outcome;
    if !same_result(&history.steps[step].outcome, alone) {
        return Err(NotShown::inconclusive(format!(
            "{}; on the state committed when it started it answers {alone}, where it answered {} in the run",
            left_out(),
            history.steps[step].outcome
        )));
    }
    let before: Vec<String> = (replay[..replay.len() - 1].iter())
        .map(|s| (s + 1).to_string())
        .collect();
    Ok(format!(
        "step {}, left out of the order for a cycle through a write not yet committed when it read, gives its result on the state committed when it started (after step{} {})",
        step + 1,
        if before.len() == 1 { "" } else { "s" },
        if before.is_empty() { "none".to_string() } else { before.join(", ") }
    ))
}

/// Per step of `case`: the unit of work it belongs to in `history` (its transaction's
/// position, or its own for a statement that ran in autocommit: alone, or after an error
/// aborted its transaction) and when that unit committed (the position its commit completed
/// at; `None` when it did not commit).
fn commit_units(case: &TestCase, history: &History) -> Vec<(usize, Option<usize>)> {
    let mut units = vec![(usize::MAX, None); case.steps.len()];
    let succeeded = |s: usize| {
        (history.steps[s].outcome.succeeded())
            .then_some(history.steps[s].completed)
            .flatten()
    };
    for txn in case.txns() {
        let aborted_at = match history.txns[txn.id].status {
            TxnStatus::Aborted { step, .. } => Some(step),
            _ => None,
        };
        let last = *txn.steps.last().expect("a transaction has statements");
        let commit = (history.txns[txn.id].status == TxnStatus::Committed)
            .then_some(history.steps[last].completed)
            .flatten();
        for &s in &txn.steps {
            units[s] = if !txn.explicit || aborted_at.is_some_and(|a| s > a) {
                (case.steps.len() + s, succeeded(s))
            } else {
                (txn.id, commit)
            };
        }
    }
    units
}
