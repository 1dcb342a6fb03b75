//! Instrumented execution: a case run with every statement rewritten by
//! [`txhunt_sql::instrument`], and its history decoded back into what the case's own
//! statements showed (hidden columns removed, a write's reported rows turned back into its row
//! count) plus the row versions each statement read and wrote.

mod decode;
mod trigger_log;

use crate::Executor;
use decode::{decode, without_hidden_columns};
use trigger_log::TriggerLog;
use txhunt_db::{Connection, Target, TargetError};
use txhunt_model::access::{TableMeta, Version};
use txhunt_model::{History, Isolation, Outcome, SqlFamily, Stmt, TestCase};
use txhunt_sql::instrument::{plan, Plan};

/// The plans of a case's setup statements and steps, and the tables it creates.
struct Plans {
    init: Vec<Plan>,
    steps: Vec<Plan>,
    tables: Vec<TableMeta>,
}

impl Plans {
    fn of(case: &TestCase, family: SqlFamily) -> Plans {
        let mut tables = Vec::new();
        let mut next = |sql: &str, version: Version| {
            let p = match plan(sql, family, version, &tables) {
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
        let plans = Plans::of(case, target.profile().family());
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
        let wrap: &dyn Fn(Box<dyn Connection>) -> Box<dyn Connection> =
            match target.profile().family() {
                SqlFamily::Mysql => &TriggerLog::wrap,
                SqlFamily::Sqlite | SqlFamily::Postgres => &|conn| conn,
            };
        let mut history = self.execute_wrapped(target, &rewritten, isolation, wrap)?;
        // A setup statement shows its own outcome, or the first error of the statements its
        // plan added.
        let ends = origin.iter().skip(1).copied().chain([history.init.len()]);
        history.init = origin
            .iter()
            .zip(ends)
            .zip(&plans.init)
            .map(|((&i, end), p)| {
                let added = history.init[i + 1..end]
                    .iter()
                    .find(|o| o.error().is_some());
                match added {
                    Some(error) => error.clone(),
                    None => decode(p, history.init[i].clone()).0,
                }
            })
            .collect();
        for (record, p) in history.steps.iter_mut().zip(&plans.steps) {
            let (outcome, accesses) =
                decode(p, std::mem::replace(&mut record.outcome, Outcome::Ok));
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
