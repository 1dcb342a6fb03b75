//! Interactive sessions, for `txhunt shell`: statements go to numbered sessions as they are
//! typed; lock waits and completions are reported as they happen (the ReplBug thesis' N
//! shells, in one place).

use crate::block::BlockDetector;
use crate::session::{Pending, Session};
use crate::BlockDetection;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::Duration;
use txhunt_db::{Database, SessionConfig, Target, TargetError};
use txhunt_model::{DbState, Isolation, Outcome};

/// A statement the shell could not send.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShellError {
    /// No session has that number.
    #[error("no session {session}; sessions are 1 to {sessions}")]
    NoSession {
        /// The number asked for.
        session: usize,
        /// How many sessions there are.
        sessions: usize,
    },
    /// The session still runs its previous statement.
    #[error("session {0} is still running its statement")]
    Busy(usize),
}

/// What happened in a session, as it happens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShellEvent {
    /// The session's statement neither ended nor waited on a lock within a second; its end
    /// follows later.
    Running {
        /// The session number (1-based).
        session: usize,
    },
    /// The session's statement waits on a lock.
    Waiting {
        /// The session number (1-based).
        session: usize,
    },
    /// The session's statement ended.
    Done {
        /// The session number (1-based).
        session: usize,
        /// How it ended.
        outcome: Outcome,
        /// Whether it waited on a lock first.
        waited: bool,
    },
}

/// How often a waiting statement is asked again whether it resumed.
const RECHECK: Duration = Duration::from_millis(5);
/// How long `submit` waits for a statement that neither ends nor waits on a lock.
const FOREGROUND: Duration = Duration::from_secs(1);

/// Follows a waiting or long statement until it ends, reporting a lock wait once.
fn watch(
    k: usize,
    session: &Session,
    busy: &AtomicBool,
    detector: &dyn BlockDetector,
    events: &Sender<ShellEvent>,
    mut waited: bool,
) {
    loop {
        match detector.recheck(session, RECHECK) {
            Pending::Done(done) => {
                busy.store(false, Ordering::SeqCst);
                let _ = events.send(ShellEvent::Done {
                    session: k,
                    outcome: done.outcome,
                    waited,
                });
                return;
            }
            Pending::Waiting if !waited => {
                waited = true;
                let _ = events.send(ShellEvent::Waiting { session: k });
            }
            _ => std::thread::sleep(RECHECK),
        }
    }
}

/// N sessions on a fresh database of a target.
pub struct Shell {
    db: Box<dyn Database>,
    sessions: Vec<Arc<Session>>,
    busy: Vec<Arc<AtomicBool>>,
    detector: Arc<dyn BlockDetector>,
    events: Sender<ShellEvent>,
}

impl Shell {
    /// Opens `n` sessions at `isolation` on a fresh database of `target`; events go to `events`.
    /// More than [`Target::max_sessions`] fail before any connection is opened.
    pub fn open(
        target: &dyn Target,
        n: usize,
        isolation: Isolation,
        events: Sender<ShellEvent>,
    ) -> Result<Shell, TargetError> {
        target.check_sessions(n)?;
        let db = target.create_database()?;
        let config = SessionConfig {
            isolation,
            mode: None,
        };
        let completions = Arc::new(AtomicU64::new(0));
        let sessions = (1..=n)
            .map(|_| {
                Session::start(
                    |hook| db.connect(config, Some(hook)),
                    Arc::clone(&completions),
                    Duration::ZERO,
                )
                .map(Arc::new)
            })
            .collect::<Result<Vec<_>, _>>()?;
        let detector: Arc<dyn BlockDetector> = BlockDetection::Exact
            .detector(target.profile().reports_lock_waits(), db.lock_probe())
            .into();
        Ok(Shell {
            busy: (0..n).map(|_| Arc::new(AtomicBool::new(false))).collect(),
            db,
            sessions,
            detector,
            events,
        })
    }

    /// Sends `sql` to session `k` (1-based) and returns what it did once it ended or is known
    /// to wait on a lock (or ran for a second); a waiting or long statement's end is sent to
    /// the events channel later, from a watcher thread.
    pub fn submit(&self, k: usize, sql: &str) -> Result<ShellEvent, ShellError> {
        let index = k.wrapping_sub(1);
        let (Some(session), Some(busy)) = (self.sessions.get(index), self.busy.get(index)) else {
            return Err(ShellError::NoSession {
                session: k,
                sessions: self.sessions.len(),
            });
        };
        if busy.swap(true, Ordering::SeqCst) {
            return Err(ShellError::Busy(k));
        }
        let baseline = session.submit(sql);
        let (now, waited) = match self.detector.after_submit(session, baseline, FOREGROUND) {
            Pending::Done(done) => {
                busy.store(false, Ordering::SeqCst);
                return Ok(ShellEvent::Done {
                    session: k,
                    outcome: done.outcome,
                    waited: false,
                });
            }
            Pending::Waiting => (ShellEvent::Waiting { session: k }, true),
            Pending::Running => (ShellEvent::Running { session: k }, false),
        };
        let (session, busy) = (Arc::clone(session), Arc::clone(busy));
        let (detector, events) = (Arc::clone(&self.detector), self.events.clone());
        std::thread::spawn(move || watch(k, &session, &busy, detector.as_ref(), &events, waited));
        Ok(now)
    }

    /// The committed contents of the database now.
    pub fn state(&self) -> Result<DbState, TargetError> {
        self.db.final_state()
    }

    /// How many sessions there are.
    pub fn len(&self) -> usize {
        self.sessions.len()
    }

    /// Whether there are no sessions.
    pub fn is_empty(&self) -> bool {
        self.sessions.is_empty()
    }
}

impl Drop for Shell {
    /// Gives statements that can still resume a moment, cancels whatever still runs or waits,
    /// closes the sessions, then drops the database.
    fn drop(&mut self) {
        let grace = std::time::Instant::now() + Duration::from_millis(250);
        while self.busy.iter().any(|b| b.load(Ordering::SeqCst))
            && std::time::Instant::now() < grace
        {
            std::thread::sleep(RECHECK);
        }
        for session in &self.sessions {
            session.cancel_waits();
            session.interrupt();
        }
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while self.busy.iter().any(|b| b.load(Ordering::SeqCst))
            && std::time::Instant::now() < deadline
        {
            std::thread::sleep(RECHECK);
        }
        self.sessions.clear();
    }
}
