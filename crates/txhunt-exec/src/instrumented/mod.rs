//! Instrumented execution: a case run with every statement rewritten by
//! [`txhunt_sql::instrument`], and its history decoded back into what the case's own
//! statements showed (hidden columns removed, a write's reported rows turned back into its row
//! count) plus the row versions each statement read and wrote.

mod connection;
mod decode;
mod trigger_log;
mod version_sets;

use crate::{phase, Executor};
use connection::Instrumented;
use decode::{decode, without_hidden_columns};
use std::collections::HashMap;
use std::sync::Arc;
use txhunt_db::{Connection, Target, TargetError};
use txhunt_model::access::{TableMeta, Version};
use txhunt_model::{History, Isolation, Outcome, SqlFamily, Stmt, TestCase};
use txhunt_sql::instrument::{plan, Plan};
use version_sets::Results;

/// The plans of a case's setup statements and steps, and the tables it creates.
struct Plans {
    init: Vec<Plan>,
    steps: Vec<Plan>,
    tables: Vec<TableMeta>,
}

impl Plans {
    /// The plans of `case`'s statements; `extra_reads` as for [`plan`].
    fn of(case: &TestCase, family: SqlFamily, extra_reads: bool) -> Plans {
        let mut tables = Vec::new();
        let mut next = |sql: &str, version: Version| {
            let p = match plan(sql, family, version, &tables, extra_reads) {
                Plan::CreateTable { then, .. }
                    if !then.is_empty() && matches!(version, Version::Step(_)) =>
                {
                    Plan::Untracked(
                        "a table created by a step: its logging triggers would be DDL inside the case's transactions".into(),
                    )
                }
                p => p,
            };
            if let Plan::CreateTable { table, .. } = &p {
                tables.push(table.clone());
            }
            p
        };
        let init: Vec<Plan> = (case.init.iter().enumerate())
            .map(|(i, s)| next(&s.sql, Version::Init(i)))
            .collect();
        let steps: Vec<Plan> = (case.steps.iter().enumerate())
            .map(|(i, s)| next(&s.stmt.sql, Version::Step(i)))
            .collect();
        Plans {
            init,
            steps,
            tables,
        }
    }

    /// The version-set reads of each statement that has some, by its version.
    fn version_sets(&self) -> HashMap<i64, Vec<String>> {
        let versions = (0..self.init.len())
            .map(Version::Init)
            .chain((0..self.steps.len()).map(Version::Step));
        self.init
            .iter()
            .chain(&self.steps)
            .zip(versions)
            .filter_map(|(p, v)| {
                let sets = p.version_sets();
                (!sets.is_empty())
                    .then(|| (v.to_column(), sets.iter().map(|s| s.sql.clone()).collect()))
            })
            .collect()
    }
}

impl Executor {
    /// Executes `case` as [`Executor::execute`] does, instrumented: the history's outcomes
    /// are what the case's own statements returned, each step has its
    /// [`txhunt_model::StepRecord::accesses`], and [`History::tables`] lists the tables.
    pub fn execute_instrumented(
        &self,
        target: &dyn Target,
        case: &TestCase,
        isolation: Isolation,
    ) -> Result<History, TargetError> {
        let family = target.profile().family();
        // A plain read at SERIALIZABLE locks (InnoDB) or is tracked by SSI (PostgreSQL).
        let extra_reads = family == SqlFamily::Sqlite || isolation != Isolation::Serializable;
        let plans = phase::time(phase::INSTRUMENT, || Plans::of(case, family, extra_reads));
        let mut rewritten = case.clone();
        // Each setup statement, then the statements its plan adds (triggers); `origin[i]` is
        // the rewritten setup statement that stands for the case's setup statement `i`.
        rewritten.init.clear();
        let mut origin = Vec::new();
        for (stmt, p) in case.init.iter().zip(&plans.init) {
            origin.push(rewritten.init.len());
            rewritten.init.push(Stmt {
                sql: p.sql(&stmt.sql).to_string(),
                ..stmt.clone()
            });
            if let Plan::CreateTable { then, .. } = p {
                rewritten.init.extend(then.iter().map(Stmt::new));
            }
        }
        for (step, p) in rewritten.steps.iter_mut().zip(&plans.steps) {
            step.stmt.sql = p.sql(&step.stmt.sql).to_string();
        }
        let sets = Arc::new(plans.version_sets());
        let results = Results::default();
        let trigger_log = family == SqlFamily::Mysql;
        let wrap = |conn: Box<dyn Connection>| {
            Instrumented::wrap(conn, trigger_log, Arc::clone(&sets), Arc::clone(&results))
        };
        let mut history = self.execute_wrapped(target, &rewritten, isolation, &wrap)?;
        let results = std::mem::take(
            &mut *results
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner()),
        );
        let read = |v: Version| results.get(&v.to_column()).map_or(&[][..], Vec::as_slice);
        // A setup statement shows its own outcome, or the first error of the statements its
        // plan added.
        let ends = origin.iter().skip(1).copied().chain([history.init.len()]);
        (history.init, history.init_writes) = origin
            .iter()
            .zip(ends)
            .zip(&plans.init)
            .map(|((&i, end), p)| {
                let added = history.init[i + 1..end]
                    .iter()
                    .find(|o| o.error().is_some());
                match added {
                    Some(error) => (error.clone(), Vec::new()),
                    None => {
                        let (outcome, accesses) = decode(p, history.init[i].clone(), &[]);
                        (outcome, accesses.writes)
                    }
                }
            })
            .unzip();
        for (s, (record, p)) in history.steps.iter_mut().zip(&plans.steps).enumerate() {
            let (outcome, accesses) = decode(
                p,
                std::mem::replace(&mut record.outcome, Outcome::Ok),
                read(Version::Step(s)),
            );
            record.outcome = outcome;
            record.accesses = Some(accesses);
        }
        if let Some(state) = history.final_state.take() {
            history.final_state = Some(without_hidden_columns(state, &plans.tables));
        }
        history.tables = plans.tables;
        Ok(history)
    }
}
