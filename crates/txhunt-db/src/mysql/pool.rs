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

    /// A session using database `db` (none: no database), prepared by the `prepare`
    /// statements: an idle one, or a new one. Switching to `db` and the statements go in one
    /// round trip; the answer is the first column of the last row they returned (a question
    /// asked last: the session's id), if any. An idle session that fails them (its server
    /// closed it) is dropped and the next one tried; a new one's failure is the error.
    pub(super) fn take(
        &self,
        db: Option<&str>,
        prepare: &[String],
    ) -> Result<(Conn, Option<String>), mysql::Error> {
        let batch: Vec<String> = (db.map(|db| format!("USE `{}`", db.replace('`', "``"))))
            .into_iter()
            .chain(prepare.iter().cloned())
            .collect();
        loop {
            let idle = self.idle.lock().unwrap_or_else(|p| p.into_inner()).pop();
            let Some(mut conn) = idle else {
                break;
            };
            if let Ok(answer) = run_batch(&mut conn, &batch) {
                return Ok((conn, answer));
            }
        }
        let mut conn = Conn::new(self.opts.clone())?;
        let answer = run_batch(&mut conn, &batch)?;
        Ok((conn, answer))
    }

    /// Takes a session back if it is healthy: the session is reset (`COM_RESET_CONNECTION`,
    /// one round trip: its transaction rolled back; session variables, user variables and
    /// temporary tables gone), so the next execution gets a clean session.
    pub(super) fn give(&self, mut conn: Conn) {
        if conn.reset().is_err() {
            return;
        }
        let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
        if idle.len() < MAX_IDLE {
            idle.push(conn);
        }
    }
}

/// Runs `batch` as one multi-statement query: the first column of the last row it returned.
fn run_batch(conn: &mut Conn, batch: &[String]) -> Result<Option<String>, mysql::Error> {
    if batch.is_empty() {
        return Ok(None);
    }
    let mut result = conn.query_iter(super::connection::join_statements(batch))?;
    let mut answer = None;
    while let Some(set) = result.iter() {
        for row in set {
            answer = row?.get::<Option<String>, _>(0).flatten();
        }
    }
    Ok(answer)
}
