//! The connection an instrumented execution runs on: the target's, plus what follows a
//! statement on the same session (the trigger log's read on MySQL/MariaDB, version-set
//! reads).

use super::{trigger_log, version_sets};
use std::collections::HashMap;
use std::sync::Arc;
use txhunt_db::{Connection, Interrupt};
use txhunt_model::Outcome;

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
