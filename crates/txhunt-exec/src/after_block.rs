//! What the protocol does after a block point: it lets the DBMS's deadlock check for the new
//! wait run before anything else is submitted. That check finds no cycle yet, so a later
//! statement that closes one is the victim, every time (PostgreSQL checks
//! `deadlock_timeout` after a wait begins; two waits begun within a millisecond would race).

use crate::session::Session;
use std::time::Duration;
use txhunt_db::DeadlockCheck;

/// How long past the check's delay a reported check is awaited before the protocol goes on
/// without it (a server so loaded that its timer fired this late).
const REPORT_LIMIT: Duration = Duration::from_secs(1);

/// The wait after a block point, for one target.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AfterBlock(pub(crate) DeadlockCheck);

impl AfterBlock {
    /// Returns once the DBMS's deadlock check for `session`'s new lock wait has run: at once
    /// where the check runs when the wait begins; when the session reports it, where it does
    /// ([`DeadlockCheck::reported`]: exact, and only as long as the check's delay); otherwise
    /// after [`sleep_past`] the delay.
    pub(crate) fn wait(&self, session: &Session) {
        let DeadlockCheck { delay, reported } = self.0;
        if delay.is_zero() {
            return;
        }
        if !reported {
            return std::thread::sleep(sleep_past(delay));
        }
        if !session.await_deadlock_check(delay + REPORT_LIMIT) {
            tracing::warn!(
                "no deadlock check was reported within {:?} of a lock wait; going on",
                delay + REPORT_LIMIT
            );
        }
    }
}

/// How long to sleep after a block point so that the DBMS's deadlock check for that wait has
/// run, when nothing says it did: its delay plus half again (at least 5 ms) for timer and
/// scheduling jitter.
fn sleep_past(delay: Duration) -> Duration {
    delay + (delay / 2).max(Duration::from_millis(5))
}
