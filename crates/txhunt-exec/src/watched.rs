//! Telling the infrastructure's failures from the DBMS's answers in derived runs.
//!
//! An oracle re-executes a case (serial schedules, replays) and compares what it gets with the
//! concurrent run. When the server died or a connection was cut under one of those runs, the
//! difference says nothing about the DBMS: [`Watched`] notes the first such failure, and the
//! judging pipeline then counts the case as an *infrastructure* event instead of trusting any
//! finding it made. (A derived run that crashes the server by itself is counted the same way:
//! only a crash during the concurrent run is judged, by the explicit oracle, after a replay.)

use crate::Runner;
use std::sync::Mutex;
use txhunt_db::{Profile, TargetError};
use txhunt_model::{ErrorClass, History, Isolation, Outcome, TestCase};

/// A [`Runner`] that remembers the first infrastructure failure of the runs made through it.
pub struct Watched<'a> {
    inner: &'a dyn Runner,
    failure: Mutex<Option<String>>,
}

impl<'a> Watched<'a> {
    /// Watches the runs of `inner`.
    pub fn new(inner: &'a dyn Runner) -> Self {
        Watched {
            inner,
            failure: Mutex::new(None),
        }
    }

    /// What failed first, if anything did.
    pub fn failure(&self) -> Option<String> {
        self.failure
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Notes `result`'s infrastructure failure, if it has one, and passes it on.
    pub fn note(&self, result: Result<History, TargetError>) -> Result<History, TargetError> {
        let why = match &result {
            Ok(history) => lost_connection(history),
            Err(e) => infrastructure_error(e),
        };
        self.remember(why);
        result
    }

    /// Notes the infrastructure failure of a run of questions, if it has one, and passes the
    /// answers on.
    fn note_answers(
        &self,
        result: Result<Vec<Outcome>, TargetError>,
    ) -> Result<Vec<Outcome>, TargetError> {
        let why = match &result {
            Ok(answers) => first_lost(answers.iter()),
            Err(e) => infrastructure_error(e),
        };
        self.remember(why);
        result
    }

    fn remember(&self, why: Option<String>) {
        if let Some(why) = why {
            let mut failure = self.failure.lock().unwrap_or_else(|p| p.into_inner());
            failure.get_or_insert(why);
        }
    }
}

/// Why `e` is a failure of the infrastructure: the target could not be reached, set up or
/// read ([`TargetError::Db`]).
fn infrastructure_error(e: &TargetError) -> Option<String> {
    matches!(e, TargetError::Db { .. }).then(|| e.to_string())
}

/// The first statement error of `history` (setup or step) that says its connection was lost,
/// as text.
pub fn lost_connection(history: &History) -> Option<String> {
    first_lost((history.init.iter()).chain(history.steps.iter().map(|s| &s.outcome)))
}

/// The first of `outcomes` that says its connection was lost, as text.
fn first_lost<'o>(outcomes: impl Iterator<Item = &'o Outcome>) -> Option<String> {
    outcomes
        .filter_map(|outcome| outcome.error())
        .find(|e| e.class == ErrorClass::Connection)
        .map(|e| format!("a statement lost its connection: {e}"))
}

impl Runner for Watched<'_> {
    fn run(&self, case: &TestCase, isolation: Isolation) -> Result<History, TargetError> {
        self.note(self.inner.run(case, isolation))
    }

    fn run_instrumented(
        &self,
        case: &TestCase,
        isolation: Isolation,
    ) -> Result<History, TargetError> {
        self.note(self.inner.run_instrumented(case, isolation))
    }

    fn ask(
        &self,
        setup: &[&str],
        questions: &[&str],
        isolation: Isolation,
    ) -> Result<Vec<Outcome>, TargetError> {
        self.note_answers(self.inner.ask(setup, questions, isolation))
    }

    fn profile(&self) -> &dyn Profile {
        self.inner.profile()
    }
}
