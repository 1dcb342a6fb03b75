//! txhunt's execution protocol.
//!
//! [`Executor::execute`] runs a [`TestCase`] on a [`Target`] at one isolation level: a fresh
//! database, the setup statements, one thread per session, statements submitted one at a time
//! in the submitted order, blocked statements known from the DBMS (see [`block`]), aborts
//! handled per the target's profile, and the final state read through a separate session. The
//! result is a [`History`].

mod after_block;
pub mod block;
pub mod instrumented;
pub mod interactive;
pub mod phase;
mod protocol;
mod questions;
mod runner;
mod session;
mod session_threads;
mod sessions_ahead;
pub mod stress;
mod watched;

pub use block::{parse_duration, BlockDetection, BlockDetector, FlagError};
pub use runner::{Instrumented, Runner, TargetRunner};
pub use watched::{lost_connection, Watched};

use after_block::AfterBlock;
use block::Solo;
use protocol::Protocol;
use session::{Session, SessionHook};
use sessions_ahead::{open_sessions, Sessions, Wrap};
use std::time::Duration;
use txhunt_db::{SessionConfig, Target, TargetError};
use txhunt_model::{History, Isolation, TestCase};

/// Runs test cases.
#[derive(Debug, Clone, Copy)]
pub struct Executor {
    /// How blocked statements are recognized.
    pub detection: BlockDetection,
    /// How long a statement may run without ending or waiting on a lock before it is a hang.
    pub statement_timeout: Duration,
    /// Whether to run cases instrumented, recording the row versions every statement read
    /// and wrote ([`Executor::execute_instrumented`]).
    pub instrument: bool,
}

impl Default for Executor {
    fn default() -> Self {
        Executor {
            detection: BlockDetection::Exact,
            statement_timeout: Duration::from_secs(10),
            instrument: false,
        }
    }
}

impl Executor {
    /// Executes `case` on a fresh database of `target`, every session at `isolation`
    /// (instrumented when [`Executor::instrument`] says so). A case with more sessions than
    /// [`Target::max_sessions`] fails before any connection is opened.
    pub fn execute(
        &self,
        target: &dyn Target,
        case: &TestCase,
        isolation: Isolation,
    ) -> Result<History, TargetError> {
        if self.instrument {
            return self.execute_instrumented(target, case, isolation);
        }
        self.execute_wrapped(target, case, isolation, &|conn| conn)
    }

    /// [`Executor::execute`], with every connection it opens wrapped by `wrap`.
    ///
    /// On a server, the sessions' connections are opened on another thread while the setup
    /// runs ([`open_sessions`]), unless a setup statement may configure new sessions
    /// ([`txhunt_model::kind::configures_sessions`]); an in-process engine opens them after
    /// the setup.
    fn execute_wrapped(
        &self,
        target: &dyn Target,
        case: &TestCase,
        isolation: Isolation,
        wrap: &Wrap<'_>,
    ) -> Result<History, TargetError> {
        target.check_sessions(case.sessions().len())?;
        let profile = target.profile();
        let config = SessionConfig {
            isolation,
            mode: case.header.mode,
        };
        let db = phase::time(phase::CREATE, || target.create_database())?;
        let mut setup = phase::time(phase::CONNECT, || db.connect(config, None).map(wrap))?;
        let init: Vec<&str> = case.init.iter().map(|s| s.sql.as_str()).collect();
        let hooks: Vec<SessionHook> = case.sessions().iter().map(|_| Default::default()).collect();
        let sessions = Sessions {
            db: db.as_ref(),
            config,
            wrap,
            hooks: &hooks,
        };
        let ahead = !db.runs_in_process()
            && !(case.init.iter()).any(|s| txhunt_model::kind::configures_sessions(&s.sql));
        let run_setup = move || {
            let init = phase::time(phase::SETUP, || setup.execute_setup(&init));
            drop(setup);
            init
        };
        let (init, opened) = if ahead {
            open_sessions(sessions, run_setup)
        } else {
            let init = run_setup();
            (init, phase::time(phase::CONNECT, || sessions.open()))
        };
        let mut opened = opened?.into_iter().zip(hooks);
        // One session has no other session of the case to wait for.
        let detector: Box<dyn BlockDetector> = if case.sessions().len() <= 1 {
            Box::new(Solo)
        } else {
            self.detection
                .detector(profile.reports_lock_waits(), db.lock_probe())
        };
        let spin = match db.runs_in_process() {
            true => session::SPIN,
            false => Duration::ZERO,
        };
        let protocol = Protocol::new(
            case,
            detector.as_ref(),
            (profile, isolation),
            self.statement_timeout,
            AfterBlock(target.deadlock_check()),
            |completions| {
                let (conn, hook) = opened.next().expect("a connection per session of the case");
                Session::serve(conn, hook, completions, spin)
            },
        )?;
        let observed = phase::time(phase::EXECUTE, || protocol.run());
        let (final_state, final_state_error) =
            match phase::time(phase::FINAL_STATE, || db.final_state()) {
                Ok(state) => (Some(state), None),
                Err(e) => (None, Some(e.to_string())),
            };
        phase::time(phase::TEARDOWN, || drop(db));
        Ok(History {
            target: target.name(),
            isolation,
            init,
            init_writes: Vec::new(),
            steps: observed.steps,
            schedule: observed.schedule,
            txns: observed.txns,
            final_state,
            final_state_error,
            tables: Vec::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use txhunt_db::sqlite::SqliteTarget;

    /// A case with one `SELECT 1` in each of `n` sessions.
    fn sessions(n: usize) -> TestCase {
        let text: String = (1..=n).map(|k| format!("/* t{k} */ SELECT 1;\n")).collect();
        txhunt_model::scenario::parse(&text, "sessions.sql").expect("parses")
    }

    #[test]
    fn a_case_with_more_sessions_than_the_target_takes_fails_at_once() {
        let target = SqliteTarget::new(None).expect("sqlite target");
        let limit = target.max_sessions();
        let run = |n| Executor::default().execute(&target, &sessions(n), Isolation::Serializable);
        assert!(run(limit).is_ok(), "{limit} sessions run");
        let err = run(limit + 1).expect_err("refused").to_string();
        assert_eq!(
            err,
            format!(
                "sqlite runs at most {limit} sessions in one execution; the case has {}",
                limit + 1
            )
        );
    }
}
