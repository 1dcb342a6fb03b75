//! The known-bug corpus: every scenario of a folder (see `corpus/README.md`) that applies to a
//! target, at every isolation level the target supports, each judged `reproduces`, `fixed`,
//! `n/a` or `error` ([`verdict`]); reported as a bug × level table and as JUnit XML
//! ([`report`]).

pub mod report;
pub mod verdict;

use crate::judge::Judge;
use crate::scenarios::Scenario;
use txhunt_db::{Target, TargetError};
use verdict::{Cell, Verdict};

/// Runs every scenario of `scenarios` that applies to `target` at each level it supports
/// (`all_levels`: also the levels a scenario's header does not name) and returns the cells.
/// A target that fails is replaced by `reopen()`, and the next scenario runs on it.
pub fn run(
    judge: &Judge,
    scenarios: &[Scenario],
    mut target: Box<dyn Target>,
    reopen: &dyn Fn() -> Result<Box<dyn Target>, TargetError>,
    all_levels: bool,
) -> Result<Vec<Cell>, TargetError> {
    let levels = target.profile().isolation_levels().to_vec();
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
            if let Some(reason) = verdict::not_applicable(case, target.profile(), level, all_levels)
            {
                cells.push(cell(Verdict::NotApplicable, reason));
                continue;
            }
            match judge.judge(case, &[target.as_ref()], level) {
                Ok(runs) => {
                    let (verdict, reason) = verdict::judge(case, &runs[0].history);
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
