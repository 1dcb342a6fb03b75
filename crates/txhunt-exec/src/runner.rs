//! Running derived cases for oracles: the same target, a fresh copy of the initial database.

use crate::Executor;
use txhunt_db::{Profile, Target, TargetError};
use txhunt_model::{History, Isolation, Outcome, TestCase};

/// Executes cases an oracle derives (serial schedules, reordered cases) on the target the
/// original ran on, each from its own fresh database; several may run at once.
pub trait Runner: Sync {
    /// Executes `case` at `isolation` and returns its history.
    fn run(&self, case: &TestCase, isolation: Isolation) -> Result<History, TargetError>;
    /// Executes `case` at `isolation` instrumented ([`Executor::execute_instrumented`]): its
    /// history has every statement's read/write accesses.
    fn run_instrumented(
        &self,
        case: &TestCase,
        isolation: Isolation,
    ) -> Result<History, TargetError>;
    /// Runs `questions` on one session of a fresh database after `setup`, at `isolation`
    /// ([`Executor::ask`]): one outcome per question. Never instrumented.
    fn ask(
        &self,
        setup: &[&str],
        questions: &[&str],
        isolation: Isolation,
    ) -> Result<Vec<Outcome>, TargetError>;
    /// The target's profile (it decides some verdicts, e.g. whether SERIALIZABLE orders reads
    /// by commit time).
    fn profile(&self) -> &dyn Profile;
}

/// The [`Runner`] of a target and an executor.
pub struct TargetRunner<'a> {
    /// How cases are executed.
    pub executor: Executor,
    /// Where.
    pub target: &'a dyn Target,
}

impl Runner for TargetRunner<'_> {
    fn run(&self, case: &TestCase, isolation: Isolation) -> Result<History, TargetError> {
        self.executor.execute(self.target, case, isolation)
    }

    fn run_instrumented(
        &self,
        case: &TestCase,
        isolation: Isolation,
    ) -> Result<History, TargetError> {
        self.executor
            .execute_instrumented(self.target, case, isolation)
    }

    fn ask(
        &self,
        setup: &[&str],
        questions: &[&str],
        isolation: Isolation,
    ) -> Result<Vec<Outcome>, TargetError> {
        (self.executor).ask(self.target, setup, questions, isolation)
    }

    fn profile(&self) -> &dyn Profile {
        self.target.profile()
    }
}

/// A [`Runner`] that runs every case instrumented, for an oracle that compares derived cases
/// with an instrumented run: like with like. Instrumentation rewrites statements, and where a
/// result depends on the order in which the DBMS visits rows (SQLite checks a UNIQUE
/// constraint row by row, so `UPDATE t SET u = u + 3` may fail or not), the rewritten
/// statement may visit them in another order than the plain one.
pub struct Instrumented<'a>(pub &'a dyn Runner);

impl Runner for Instrumented<'_> {
    fn run(&self, case: &TestCase, isolation: Isolation) -> Result<History, TargetError> {
        self.0.run_instrumented(case, isolation)
    }

    fn run_instrumented(
        &self,
        case: &TestCase,
        isolation: Isolation,
    ) -> Result<History, TargetError> {
        self.0.run_instrumented(case, isolation)
    }

    fn ask(
        &self,
        setup: &[&str],
        questions: &[&str],
        isolation: Isolation,
    ) -> Result<Vec<Outcome>, TargetError> {
        self.0.ask(setup, questions, isolation)
    }

    fn profile(&self) -> &dyn Profile {
        self.0.profile()
    }
}
