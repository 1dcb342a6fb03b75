//! Block detection: deciding whether a pending statement is blocked on a lock.
//!
//! txhunt asks the DBMS: [`ReportedWaits`] trusts the lock waits the driver reports as they
//! happen (SQLite's busy handler), so a blocked statement is known at once and a resumed one is
//! known as soon as it ends; [`Probed`] asks the server's lock-wait probe (a monitor session)
//! while the statement is pending. [`Timeout`] is the papers' method, kept for comparison and
//! for targets that cannot tell: a statement that has not ended after a fixed time is judged
//! blocked.

use crate::phase;
use crate::session::{Pending, Session};
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use txhunt_db::LockProbe;

/// Decides, for a pending statement, whether it ended, waits on a lock, or is still running.
pub trait BlockDetector: Send + Sync {
    /// A name for reports (`exact`, `timeout:2s`).
    fn name(&self) -> String;

    /// Right after `session` was given a statement (`baseline` from `Session::submit`): wait
    /// until it ends or is known to be blocked, or `limit` has passed (then it is running).
    fn after_submit(&self, session: &Session, baseline: u64, limit: Duration) -> Pending;

    /// Like [`BlockDetector::after_submit`], for a statement nothing can make wait: no other
    /// session of the execution may hold a lock. A detector that asks the server questions
    /// need not ask them; by default it is [`BlockDetector::after_submit`].
    fn after_submit_alone(&self, session: &Session, baseline: u64, limit: Duration) -> Pending {
        self.after_submit(session, baseline, limit)
    }

    /// For a statement judged blocked earlier, after other statements ran: has it resumed?
    /// Returns `Done` if it ended, `Waiting` if it still waits, `Running` if it got its lock but
    /// has not ended within `limit`.
    fn recheck(&self, session: &Session, limit: Duration) -> Pending;
}

/// Exact detection from the lock waits the driver reports (the DBMS says it waits).
#[derive(Debug, Default, Clone, Copy)]
pub struct ReportedWaits;

impl BlockDetector for ReportedWaits {
    fn name(&self) -> String {
        "exact".into()
    }

    fn after_submit(&self, session: &Session, baseline: u64, limit: Duration) -> Pending {
        session.settle(baseline, limit, true)
    }

    /// Lets the waiting statement retry its lock once: it either gets it and runs to its end,
    /// or reports a new wait.
    fn recheck(&self, session: &Session, limit: Duration) -> Pending {
        let baseline = session.poke();
        session.settle(baseline, limit, true)
    }
}

/// A case with one session: no other session of the case can hold a lock it waits for, so
/// each statement is simply awaited (a hang after the statement timeout), and no probe is
/// asked. Oracles' serial re-executions run this way.
#[derive(Debug, Default, Clone, Copy)]
pub struct Solo;

impl BlockDetector for Solo {
    fn name(&self) -> String {
        "solo".into()
    }

    fn after_submit(&self, session: &Session, _baseline: u64, limit: Duration) -> Pending {
        session.settle(0, limit, false)
    }

    fn recheck(&self, session: &Session, limit: Duration) -> Pending {
        session.settle(0, limit, false)
    }
}

/// Exact detection by asking the server's lock-wait probe while a statement is pending.
pub struct Probed {
    /// The target's probe.
    pub probe: Arc<dyn LockProbe>,
}

/// The first pause before asking the probe; doubled up to [`MAX_POLL`] while it runs.
const FIRST_POLL: Duration = Duration::from_micros(500);
/// The longest pause between two probe questions.
const MAX_POLL: Duration = Duration::from_millis(5);

impl Probed {
    /// Waits for the statement to end, asking the probe between short pauses; `Waiting` as soon
    /// as the probe sees a lock wait, `Running` after `limit`.
    fn watch(&self, session: &Session, limit: Duration) -> Pending {
        let Some(id) = session.server_id.as_deref() else {
            return session.settle(0, limit, false);
        };
        let deadline = Instant::now() + limit;
        let mut pause = FIRST_POLL;
        loop {
            if let Pending::Done(done) = session.settle(0, pause, false) {
                return Pending::Done(done);
            }
            if phase::time(phase::PROBE, || self.probe.is_waiting(id)) {
                // It may have ended between the pause and the answer.
                return match session.settle(0, Duration::ZERO, false) {
                    Pending::Done(done) => Pending::Done(done),
                    _ => Pending::Waiting,
                };
            }
            if Instant::now() >= deadline {
                return Pending::Running;
            }
            pause = (pause * 2).min(MAX_POLL);
        }
    }
}

impl BlockDetector for Probed {
    fn name(&self) -> String {
        "exact".into()
    }

    fn after_submit(&self, session: &Session, _baseline: u64, limit: Duration) -> Pending {
        self.watch(session, limit)
    }

    /// Awaits the statement without a question: it cannot wait on a lock.
    fn after_submit_alone(&self, session: &Session, _baseline: u64, limit: Duration) -> Pending {
        session.settle(0, limit, false)
    }

    /// Asks first: a statement still waiting costs one probe question.
    fn recheck(&self, session: &Session, limit: Duration) -> Pending {
        if let Pending::Done(done) = session.settle(0, Duration::ZERO, false) {
            return Pending::Done(done);
        }
        if let Some(id) = session.server_id.as_deref() {
            if phase::time(phase::PROBE, || self.probe.is_waiting(id)) {
                return match session.settle(0, Duration::ZERO, false) {
                    Pending::Done(done) => Pending::Done(done),
                    _ => Pending::Waiting,
                };
            }
        }
        self.watch(session, limit)
    }
}

/// The papers' method: a statement that has not ended within `wait` is judged blocked.
#[derive(Debug, Clone, Copy)]
pub struct Timeout {
    /// How long a statement may run before it is judged blocked (2 s in the papers).
    pub wait: Duration,
}

impl BlockDetector for Timeout {
    fn name(&self) -> String {
        format!("timeout:{}", format_duration(self.wait))
    }

    fn after_submit(&self, session: &Session, _baseline: u64, _limit: Duration) -> Pending {
        match session.settle(0, self.wait, false) {
            Pending::Done(done) => Pending::Done(done),
            _ => Pending::Waiting,
        }
    }

    /// Gives a blocked statement `wait` to end; if it does not, it is still judged blocked.
    fn recheck(&self, session: &Session, _limit: Duration) -> Pending {
        session.poke();
        match session.settle(0, self.wait, false) {
            Pending::Done(done) => Pending::Done(done),
            _ => Pending::Waiting,
        }
    }
}

/// Which detector to use, as given on the command line: `exact` or `timeout:DURATION`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockDetection {
    /// Ask the DBMS (the default); falls back to a 2 s timeout on targets that cannot tell.
    Exact,
    /// Judge a statement blocked when it has not ended after this long.
    Timeout(Duration),
}

impl BlockDetection {
    /// The detector for a target whose driver does (or does not) report its lock waits and
    /// that may have a lock-wait probe.
    pub fn detector(
        self,
        reports_waits: bool,
        probe: Option<Arc<dyn LockProbe>>,
    ) -> Box<dyn BlockDetector> {
        match (self, probe) {
            (BlockDetection::Exact, _) if reports_waits => Box::new(ReportedWaits),
            (BlockDetection::Exact, Some(probe)) => Box::new(Probed { probe }),
            (BlockDetection::Exact, None) => Box::new(Timeout {
                wait: Duration::from_secs(2),
            }),
            (BlockDetection::Timeout(wait), _) => Box::new(Timeout { wait }),
        }
    }
}

impl fmt::Display for BlockDetection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BlockDetection::Exact => f.write_str("exact"),
            BlockDetection::Timeout(d) => write!(f, "timeout:{}", format_duration(*d)),
        }
    }
}

/// A `--block-detect` or duration flag value that does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct FlagError(String);

impl FromStr for BlockDetection {
    type Err = FlagError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        if text == "exact" {
            return Ok(BlockDetection::Exact);
        }
        match text.strip_prefix("timeout:") {
            Some(d) => parse_duration(d).map(BlockDetection::Timeout),
            None => Err(FlagError(format!(
                "unknown block detection '{text}'; accepted: exact, timeout:DURATION (e.g. timeout:2s)"
            ))),
        }
    }
}

/// Parses `250ms`, `2s`, `1.5s`, `3m`.
pub fn parse_duration(text: &str) -> Result<Duration, FlagError> {
    let text = text.trim();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let value: f64 = number
        .parse()
        .map_err(|_| FlagError(format!("bad duration '{text}'; write e.g. 500ms, 2s, 1m")))?;
    let seconds = match unit {
        "ms" => value / 1000.0,
        "s" | "" => value,
        "m" => value * 60.0,
        "h" => value * 3600.0,
        _ => {
            return Err(FlagError(format!(
                "bad duration unit in '{text}'; accepted: ms, s, m, h"
            )))
        }
    };
    Ok(Duration::from_secs_f64(seconds))
}

fn format_duration(d: Duration) -> String {
    if d.subsec_millis() == 0 {
        format!("{}s", d.as_secs())
    } else {
        format!("{}ms", d.as_millis())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_detection_flags() {
        assert_eq!("exact".parse(), Ok(BlockDetection::Exact));
        assert_eq!(
            "timeout:2s".parse(),
            Ok(BlockDetection::Timeout(Duration::from_secs(2)))
        );
        assert_eq!(
            "timeout:250ms".parse(),
            Ok(BlockDetection::Timeout(Duration::from_millis(250)))
        );
        assert!("timeout:2x".parse::<BlockDetection>().is_err());
        assert!("guess".parse::<BlockDetection>().is_err());
        assert_eq!(
            BlockDetection::Timeout(Duration::from_millis(1500)).to_string(),
            "timeout:1500ms"
        );
    }
}
