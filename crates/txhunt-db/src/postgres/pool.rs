//! Idle sessions of one PostgreSQL target, reused across executions: a new backend costs
//! several milliseconds (a process fork), more than a whole short test case.

use postgres::{Client, Config, NoTls};
use std::sync::Mutex;

/// At most this many idle sessions are kept.
const MAX_IDLE: usize = 32;

/// A pool of idle, reset sessions on one database.
pub(super) struct Pool {
    config: Config,
    idle: Mutex<Vec<Client>>,
}

impl Pool {
    pub(super) fn new(config: Config) -> Self {
        Pool {
            config,
            idle: Mutex::new(Vec::new()),
        }
    }

    /// An idle session, or a new one.
    pub(super) fn take(&self) -> Result<Client, postgres::Error> {
        let idle = self.idle.lock().unwrap_or_else(|p| p.into_inner()).pop();
        match idle {
            Some(client) => Ok(client),
            None => self.config.connect(NoTls),
        }
    }

    /// Takes a session back if it is healthy: its transaction is rolled back and every session
    /// setting reset (`DISCARD ALL`), so the next execution gets a clean session.
    pub(super) fn give(&self, mut client: Client) {
        if client.is_closed()
            || client.batch_execute("ROLLBACK").is_err()
            || client.batch_execute("DISCARD ALL").is_err()
        {
            return;
        }
        let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
        if idle.len() < MAX_IDLE {
            idle.push(client);
        }
    }
}
