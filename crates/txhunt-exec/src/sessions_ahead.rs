//! The sessions of an execution, opened while its setup runs: on a server, a session's
//! connection is a round trip or more (a pooled session's database and isolation level set,
//! its id asked), which the setup's statements need not wait for.

use crate::phase;
use crate::session::SessionHook;
use txhunt_db::{Connection, Database, SessionConfig, TargetError};

/// What every connection an execution opens goes through (instrumentation wraps them).
pub(crate) type Wrap<'a> = dyn Fn(Box<dyn Connection>) -> Box<dyn Connection> + Sync + 'a;

/// The sessions of an execution to open: one connection per hook, in the hooks' order.
pub(crate) struct Sessions<'a> {
    pub(crate) db: &'a dyn Database,
    pub(crate) config: SessionConfig,
    pub(crate) wrap: &'a Wrap<'a>,
    pub(crate) hooks: &'a [SessionHook],
}

impl Sessions<'_> {
    /// Opens the connections, one after the other.
    pub(crate) fn open(&self) -> Result<Vec<Box<dyn Connection>>, TargetError> {
        (self.hooks.iter())
            .map(|h| self.db.connect(self.config, Some(h.hook())).map(self.wrap))
            .collect()
    }
}

/// Opens `sessions` on a thread of their own while `setup` runs on this one. Only the wait for
/// connections the setup outlasted counts as [`phase::CONNECT`].
pub(crate) fn open_sessions<T>(
    sessions: Sessions<'_>,
    setup: impl FnOnce() -> T,
) -> (T, Result<Vec<Box<dyn Connection>>, TargetError>) {
    std::thread::scope(|scope| {
        let opening = scope.spawn(|| sessions.open());
        let done = setup();
        let opened = phase::time(phase::CONNECT, || {
            opening
                .join()
                .unwrap_or_else(|p| std::panic::resume_unwind(p))
        });
        (done, opened)
    })
}
