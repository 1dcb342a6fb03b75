//! Questions to a fresh database ([`Executor::ask`]): statements whose answers an oracle needs
//! (e.g. whether a row version matches a predicate), not a case to judge. One session, no
//! protocol: nothing can block it, its transactions are of no interest, and no final state is
//! read. The statements go to the server in batches ([`Connection::execute_all`]: one round
//! trip each on MariaDB), the batch after a failed statement starting right after it.

use crate::{phase, Executor};
use std::sync::mpsc;
use std::time::Duration;
use txhunt_db::{Connection, SessionConfig, Target, TargetError};
use txhunt_model::{Isolation, Outcome};

/// The most statements sent in one batch.
const BATCH: usize = 60;

impl Executor {
    /// Runs `setup` (each statement's outcome ignored: the questions' answers say what they
    /// need) and then every statement of `questions` in order on one session of a fresh
    /// database of `target` at `isolation`, and returns the questions' outcomes, one each.
    /// A batch still running after the statement timeout is interrupted; the questions after
    /// a statement that hung or lost its connection are `not run`.
    pub fn ask(
        &self,
        target: &dyn Target,
        setup: &[&str],
        questions: &[&str],
        isolation: Isolation,
    ) -> Result<Vec<Outcome>, TargetError> {
        let config = SessionConfig {
            isolation,
            mode: None,
        };
        let db = phase::time(phase::CREATE, || target.create_database())?;
        let mut conn = phase::time(phase::CONNECT, || db.connect(config, None))?;
        phase::time(phase::SETUP, || conn.execute_setup(setup));
        let outcomes = phase::time(phase::EXECUTE, || {
            answer(conn.as_mut(), questions, self.statement_timeout)
        });
        phase::time(phase::TEARDOWN, || {
            drop(conn);
            drop(db);
        });
        Ok(outcomes)
    }
}

/// `questions`' outcomes on `conn`, batch by batch, each batch interrupted after `limit`.
fn answer(conn: &mut dyn Connection, questions: &[&str], limit: Duration) -> Vec<Outcome> {
    let interrupter = conn.interrupter();
    let mut outcomes: Vec<Outcome> = Vec::with_capacity(questions.len());
    while outcomes.len() < questions.len() {
        let rest = &questions[outcomes.len()..];
        let batch = &rest[..rest.len().min(BATCH)];
        let (done, finished) = mpsc::channel::<()>();
        let (answers, hung) = std::thread::scope(|scope| {
            let interrupter = &interrupter;
            scope.spawn(move || {
                if finished.recv_timeout(limit).is_err() {
                    interrupter.interrupt();
                }
            });
            let started = std::time::Instant::now();
            let answers = conn.execute_all(batch);
            let hung = started.elapsed() >= limit;
            let _ = done.send(());
            (answers, hung)
        });
        let mut answers = answers;
        if hung {
            if let Some(last) = answers.last_mut() {
                *last = Outcome::Hang {
                    after_ms: limit.as_millis() as u64,
                    lock_cycle: false,
                };
            }
        }
        let stop = hung
            || answers.is_empty()
            || (answers.last())
                .and_then(Outcome::error)
                .is_some_and(|e| e.class == txhunt_model::ErrorClass::Connection);
        outcomes.extend(answers);
        if stop {
            break;
        }
    }
    let reason = "an earlier question hung or lost its connection";
    outcomes.resize(
        questions.len(),
        Outcome::NotRun {
            reason: reason.into(),
        },
    );
    outcomes
}
