//! The known-bug corpus: every scenario of a folder (see `corpus/README.md`) that applies to a
//! target, at every isolation level the target supports, each judged by its expectations and,
//! when the judge has it, the DSG oracle: `reproduces`, `fixed`, `no-anomaly`, `n/a` or
//! `error` ([`verdict`]); reported as a bug × level table and as JUnit XML ([`report`]).

pub mod report;
pub mod verdict;

use crate::judge::Judge;
use crate::scenarios::Scenario;
use txhunt_db::{Target, TargetError};
use txhunt_exec::Executor;
use txhunt_oracle::{oracle, OracleId};
use verdict::{Cell, Verdict};

/// Runs every scenario of `scenarios` that applies to `target` at each level it supports
/// (`all_levels`: also the levels a scenario's header does not name) and returns the cells.
/// A target that fails is replaced by `reopen()`, and the next scenario runs on it.
///
/// Expectations are checked on a run by `executor`; with `dsg`, the DSG oracle judges a run of
/// its own, instrumented (instrumentation is not transparent to every PoC: its triggers and
/// hidden columns change some of InnoDB's locking, so expectations are never checked on an
/// instrumented run).
pub fn run(
    (executor, dsg): (Executor, bool),
    scenarios: &[Scenario],
    mut target: Box<dyn Target>,
    reopen: &dyn Fn() -> Result<Box<dyn Target>, TargetError>,
    all_levels: bool,
) -> Result<Vec<Cell>, TargetError> {
    let levels = target.profile().isolation_levels().to_vec();
    let dsg = dsg.then(|| Judge {
        executor,
        oracles: vec![oracle(OracleId::Dsg)],
    });
    let judge = &Judge {
        executor,
        oracles: Vec::new(),
    };
    let mut cells = Vec::new();
    for (file, case) in scenarios {
        for &level in &levels {
            let cell = |verdict, reason: String| Cell {
                id: case.header.id.clone().unwrap_or_else(|| file.clone()),
                file: file.clone(),
                dbms: case.header.dbms.clone().unwrap_or_default(),
                level,
                verdict,
                reason,
            };
            let applies = (all_levels, dsg.is_some());
            if let Some(reason) = verdict::not_applicable(case, target.profile(), level, applies) {
                cells.push(cell(Verdict::NotApplicable, reason));
                continue;
            }
            let plain = judge.judge(case, &[target.as_ref()], level);
            let instrumented = match &dsg {
                Some(dsg) => dsg.judge(case, &[target.as_ref()], level).map(Some),
                None => Ok(None),
            };
            match plain.and_then(|plain| Ok((plain, instrumented?))) {
                Ok((plain, instrumented)) => {
                    let findings = instrumented
                        .map_or_else(Vec::new, |mut runs| std::mem::take(&mut runs[0].findings));
                    let (verdict, reason) = verdict::judge(case, &plain[0].history, &findings);
                    cells.push(cell(verdict, reason));
                }
                Err(e) => {
                    cells.push(cell(Verdict::Error, e.source.to_string()));
                    // A crashed server is replaced; the next scenario runs on a fresh one.
                    target = reopen()?;
                }
            }
        }
    }
    Ok(cells)
}
