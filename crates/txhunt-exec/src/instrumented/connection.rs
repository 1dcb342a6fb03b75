//! The connection an instrumented execution runs on: the target's, plus what follows a
//! statement on the same session (the trigger log's read on MySQL/MariaDB, version-set
//! reads).

use super::{trigger_log, version_sets};
use std::collections::HashMap;
use std::sync::Arc;
use txhunt_db::{Connection, Interrupt};
use txhunt_model::Outcome;
use txhunt_sql::instrument::marked_version;

/// A target's connection, instrumented.
pub(super) struct Instrumented {
    inner: Box<dyn Connection>,
    /// Whether writes report through the trigger log (MySQL/MariaDB).
    trigger_log: bool,
    /// The version-set reads of each marked statement, by its version.
    sets: Arc<HashMap<i64, Vec<String>>>,
    /// Their outcomes.
    results: version_sets::Results,
}

impl Instrumented {
    /// `inner`, instrumented.
    pub(super) fn wrap(
        inner: Box<dyn Connection>,
        trigger_log: bool,
        sets: Arc<HashMap<i64, Vec<String>>>,
        results: version_sets::Results,
    ) -> Box<dyn Connection> {
        Box::new(Instrumented {
            inner,
            trigger_log,
            sets,
            results,
        })
    }
}

impl Instrumented {
    /// Whether something is recorded after `sql` on this session: its trigger log, or its
    /// version sets.
    fn records_after(&self, sql: &str) -> bool {
        (self.trigger_log && trigger_log::marked(sql))
            || marked_version(sql).is_some_and(|v| self.sets.contains_key(&v))
    }
}

impl Connection for Instrumented {
    fn execute(&mut self, sql: &str) -> Outcome {
        let outcome = match self.trigger_log {
            true => trigger_log::run(self.inner.as_mut(), sql),
            false => self.inner.execute(sql),
        };
        if outcome.succeeded() {
            version_sets::after(self.inner.as_mut(), sql, &self.sets, &self.results);
        }
        outcome
    }

    /// Statements whose rows or reads are recorded after them (trigger-logged writes,
    /// statements with version sets) one by one; the runs of others between them through
    /// the target's connection, batched where it batches.
    fn execute_setup(&mut self, sqls: &[&str]) -> Vec<Outcome> {
        let recorded: Vec<bool> = sqls.iter().map(|sql| self.records_after(sql)).collect();
        let mut outcomes = Vec::with_capacity(sqls.len());
        while outcomes.len() < sqls.len() {
            let at = outcomes.len();
            if recorded[at] {
                outcomes.push(self.execute(sqls[at]));
                continue;
            }
            let plain = recorded[at..].iter().take_while(|r| !**r).count();
            let ran = self.inner.execute_setup(&sqls[at..at + plain]);
            if ran.is_empty() {
                break;
            }
            outcomes.extend(ran);
        }
        outcomes
    }

    fn in_transaction(&mut self) -> Option<bool> {
        self.inner.in_transaction()
    }

    fn interrupter(&self) -> Arc<dyn Interrupt> {
        self.inner.interrupter()
    }

    fn session_id(&self) -> Option<String> {
        self.inner.session_id()
    }
}
