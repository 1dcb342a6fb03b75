//! Idle sessions of one PostgreSQL target, reused across executions: a new backend costs
//! several milliseconds (a process fork), more than a whole short test case.

use crate::target::LockWaitHook;
use postgres::error::DbError;
use postgres::{Client, Config, NoTls};
use std::sync::{Arc, Mutex};

/// At most this many idle sessions are kept.
const MAX_IDLE: usize = 32;

/// A pooled session: its client, where the notices the server sends it go, and its id on the
/// server once asked (a backend keeps its id for the connection's life).
pub(super) struct Pooled {
    pub(super) client: Client,
    pub(super) notices: Arc<NoticeRoute>,
    pub(super) id: Option<String>,
}

/// Where a session's notices go: to the lock-wait hook of the execution using it, if any.
/// The driver fixes a connection's notice callback when it connects, and a pooled session
/// serves one execution after another.
#[derive(Default)]
pub(super) struct NoticeRoute(Mutex<Option<Arc<dyn LockWaitHook>>>);

impl NoticeRoute {
    /// Sends the session's notices to `hook` from now on (none: nowhere).
    pub(super) fn route_to(&self, hook: Option<Arc<dyn LockWaitHook>>) {
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) = hook;
    }

    /// Tells the hook when `notice` reports a deadlock check of the session's lock wait.
    fn deliver(&self, notice: &DbError) {
        if !reports_deadlock_check(notice) {
            return;
        }
        if let Some(hook) = &*self.0.lock().unwrap_or_else(|p| p.into_inner()) {
            hook.deadlock_checked();
        }
    }
}

/// Whether `notice` is the message a waiting backend logs once its deadlock check ran
/// (`log_lock_waits`: "process … still waiting for …", "… acquired …", "… avoided deadlock …",
/// "… detected deadlock …"). All come from the lock manager's `ProcSleep`, which the notice
/// names whatever language the server's messages are in.
fn reports_deadlock_check(notice: &DbError) -> bool {
    notice.routine() == Some("ProcSleep")
}

/// A pool of idle, reset sessions on one database.
pub(super) struct Pool {
    config: Config,
    idle: Mutex<Vec<Pooled>>,
}

impl Pool {
    pub(super) fn new(config: Config) -> Self {
        Pool {
            config,
            idle: Mutex::new(Vec::new()),
        }
    }

    /// An idle session, or a new one.
    pub(super) fn take(&self) -> Result<Pooled, postgres::Error> {
        let idle = self.idle.lock().unwrap_or_else(|p| p.into_inner()).pop();
        if let Some(pooled) = idle {
            return Ok(pooled);
        }
        let notices = Arc::new(NoticeRoute::default());
        let route = Arc::clone(&notices);
        let client = (self.config.clone())
            .notice_callback(move |notice| route.deliver(&notice))
            .connect(NoTls)?;
        Ok(Pooled {
            client,
            notices,
            id: None,
        })
    }

    /// Takes a session back if it is healthy: its notices go nowhere, its transaction is
    /// rolled back and every session setting reset (`DISCARD ALL`), so the next execution gets
    /// a clean session. Most sessions end their transaction themselves: `DISCARD ALL` alone
    /// then does it in one round trip; inside a transaction block (open or failed) it fails,
    /// and the transaction is rolled back first.
    pub(super) fn give(&self, mut pooled: Pooled) {
        pooled.notices.route_to(None);
        let client = &mut pooled.client;
        let reset = |client: &mut Client| client.batch_execute("DISCARD ALL").is_ok();
        if client.is_closed()
            || !(reset(client) || (client.batch_execute("ROLLBACK").is_ok() && reset(client)))
        {
            return;
        }
        let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
        if idle.len() < MAX_IDLE {
            idle.push(pooled);
        }
    }
}
