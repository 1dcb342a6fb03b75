//! Idle sessions of one MySQL-protocol target, reused across executions: a new connection
//! costs a TCP handshake and an authentication, a good part of a short test case.

use mysql::prelude::Queryable;
use mysql::{Conn, Opts};
use std::sync::Mutex;

/// At most this many idle sessions are kept.
const MAX_IDLE: usize = 32;

/// A pool of idle, reset sessions on one server (on no database).
pub(super) struct Pool {
    opts: Opts,
    idle: Mutex<Vec<Conn>>,
}

impl Pool {
    /// An empty pool of sessions opened with `opts` (which name no database).
    pub(super) fn new(opts: Opts) -> Self {
        Pool {
            opts,
            idle: Mutex::new(Vec::new()),
        }
    }

    /// A session using database `db` (none: no database): an idle one, or a new one. An idle
    /// one that cannot switch to `db` (its server closed it) is dropped.
    pub(super) fn take(&self, db: Option<&str>) -> Result<Conn, mysql::Error> {
        loop {
            let idle = self.idle.lock().unwrap_or_else(|p| p.into_inner()).pop();
            let Some(mut conn) = idle else {
                break;
            };
            match db {
                Some(db) if conn.select_db(db).is_err() => continue,
                _ => return Ok(conn),
            }
        }
        let mut conn = Conn::new(self.opts.clone())?;
        if let Some(db) = db {
            conn.select_db(db)?;
        }
        Ok(conn)
    }

    /// Takes a session back if it is healthy: its transaction is rolled back and the session
    /// reset (`COM_RESET_CONNECTION`: session variables, user variables, temporary tables),
    /// so the next execution gets a clean session.
    pub(super) fn give(&self, mut conn: Conn) {
        if conn.query_drop("ROLLBACK").is_err() || conn.reset().is_err() {
            return;
        }
        let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
        if idle.len() < MAX_IDLE {
            idle.push(conn);
        }
    }
}
