//! Databases dropped off the critical path: an execution hands its database's `DROP DATABASE`
//! to a thread of the target's and the next execution starts at once. At most [`QUEUE`] drops
//! wait (then handing one over waits too), and the target waits for every drop it was handed
//! before it goes, so that its server is never stopped under one.

use super::connection::describe;
use super::pool::Pool;
use mysql::prelude::Queryable;
use mysql::Conn;
use std::sync::mpsc::{sync_channel, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// How many handed-over drops may wait.
const QUEUE: usize = 4;

/// A database to drop: the session to drop it on, and its name as SQL spells it.
struct Job {
    session: Arc<Mutex<Conn>>,
    database: String,
}

/// The thread that drops databases, and the way to hand it one.
pub(super) struct Dropper {
    sender: Mutex<Option<SyncSender<Job>>>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl Dropper {
    /// A dropper that gives each session back to `pool` once its database is dropped (when
    /// nothing else holds the session any more).
    pub(super) fn new(pool: Arc<Pool>) -> Dropper {
        let (sender, jobs) = sync_channel::<Job>(QUEUE);
        let thread = std::thread::Builder::new()
            .name("txhunt-drop".into())
            .spawn(move || {
                for job in jobs {
                    drop_now(&job.session, &job.database);
                    if let Ok(session) = Arc::try_unwrap(job.session) {
                        pool.give(session.into_inner().unwrap_or_else(|p| p.into_inner()));
                    }
                }
            })
            .ok();
        Dropper {
            sender: Mutex::new(thread.is_some().then_some(sender)),
            thread: Mutex::new(thread),
        }
    }

    /// Drops `database` (quoted) on `session`: in the background, or here when the dropper
    /// has finished (or its thread could not start).
    pub(super) fn drop_database(&self, session: Arc<Mutex<Conn>>, database: String) {
        let sender = self
            .sender
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        let job = Job { session, database };
        let Some(sender) = sender else {
            return drop_now(&job.session, &job.database);
        };
        if let Err(refused) = sender.send(job) {
            drop_now(&refused.0.session, &refused.0.database);
        }
    }

    /// Waits until every database handed over is dropped; later ones are dropped at once.
    pub(super) fn finish(&self) {
        self.sender.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(thread) = self.thread.lock().unwrap_or_else(|p| p.into_inner()).take() {
            let _ = thread.join();
        }
    }
}

/// Drops `database` on `session`; a failure is logged (the server may be gone: a crash test).
fn drop_now(session: &Mutex<Conn>, database: &str) {
    let mut session = session.lock().unwrap_or_else(|p| p.into_inner());
    if let Err(e) = session.query_drop(format!("DROP DATABASE IF EXISTS {database}")) {
        tracing::warn!("could not drop database {database}: {}", describe(&e));
    }
}
