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
//! excuse said. A run the SDG oracle cannot judge (an untracked statement, a cycle) shows
//! nothing either way; nor does one it judged only without statements decycling removed.

use super::NotShown;
use crate::dsg::Adya;
use crate::sdg::sequential::same_result;
use crate::sdg::{judge, label_steps};
use crate::Oracle;
use txhunt_exec::Runner;
use txhunt_model::{History, TestCase};

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
    if !verdict.removed.is_empty() {
        let steps: Vec<String> = (verdict.removed.iter())
            .map(|s| (s + 1).to_string())
            .collect();
        return Err(NotShown::inconclusive(format!(
            "the statement dependency graph was cyclic: without step {}, whose result is then not compared",
            steps.join(", ")
        )));
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
    Ok(format!(
        "its statements give their results and final state run one at a time in the order {} that their dependencies allow{}",
        order.join(" → "),
        excused.concat()
    ))
}
