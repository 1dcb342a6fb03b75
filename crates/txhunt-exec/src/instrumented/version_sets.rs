//! Version-set reads ([`txhunt_sql::instrument::VersionSet`]): a statement marked with
//! [`version_sets_marker`] is followed, on its own connection and in its transaction, by the
//! reads of the row versions it read but cannot return itself; their outcomes are kept per
//! statement for decoding.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use txhunt_db::{Connection, Interrupt};
use txhunt_model::Outcome;
use txhunt_sql::instrument::version_sets_marker;

/// The version-set outcomes of each statement, by the version it is marked with.
pub(super) type Results = Arc<Mutex<HashMap<i64, Vec<Outcome>>>>;

/// A connection that runs each marked statement's version-set reads right after it.
pub(super) struct VersionSetReads {
    inner: Box<dyn Connection>,
    /// The reads of each marked statement, by its version.
    sets: Arc<HashMap<i64, Vec<String>>>,
    results: Results,
}

impl VersionSetReads {
    /// `inner`, running the reads `sets` and keeping their outcomes in `results`.
    pub(super) fn wrap(
        inner: Box<dyn Connection>,
        sets: Arc<HashMap<i64, Vec<String>>>,
        results: Results,
    ) -> Box<dyn Connection> {
        Box::new(VersionSetReads {
            inner,
            sets,
            results,
        })
    }
}

impl Connection for VersionSetReads {
    fn execute(&mut self, sql: &str) -> Outcome {
        let outcome = self.inner.execute(sql);
        let marked = self
            .sets
            .iter()
            .find(|(v, _)| sql.contains(&version_sets_marker(**v)));
        if let Some((v, reads)) = marked {
            if outcome.succeeded() {
                let read: Vec<Outcome> = reads.iter().map(|r| self.inner.execute(r)).collect();
                self.results
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner())
                    .insert(*v, read);
            }
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
