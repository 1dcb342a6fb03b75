//! Databases made and dropped off the executions' time. Each server target has a thread of
//! its own, its housekeeper, which
//!
//! * drops the databases (or schemas) of finished executions: an execution hands its
//!   database over ([`Housekeeper::hand`]) and the next one starts at once;
//! * creates databases ahead: [`Housekeeper::take_ready`] gives one made while the previous
//!   execution ran (a database is created, and dropped, on the server's time either way; ahead,
//!   the execution does not wait for it), and asks for the next.
//!
//! At most [`QUEUE`] jobs wait (then handing a drop over waits too; a database is only asked
//! for ahead when there is room). The target waits for every drop it handed over before it
//! goes, and drops the databases made ahead that no execution took, so that its server is
//! never stopped under a drop and nothing is left behind.

use crate::target::fresh_database_name;
use std::collections::VecDeque;
use std::sync::mpsc::{sync_channel, SyncSender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;

/// How many jobs may wait.
const QUEUE: usize = 4;

/// At most this many databases are kept ready (several workers may share a target).
const MAX_READY: usize = 4;

/// What a target's housekeeper does, on the session(s) of its own the work holds.
pub(crate) trait Housework: Send + 'static {
    /// A finished execution's database, as handed over.
    type Used: Send + 'static;
    /// Drops `used`; a failure is logged (the server may be gone: a crash test).
    fn drop_used(&mut self, used: Self::Used);
    /// Creates an empty database `name`: whether it now exists (a failure is logged; the
    /// execution that finds none ready creates its own and meets the error itself).
    fn create(&mut self, name: &str) -> bool;
    /// Drops the database `name` it created and no execution took.
    fn drop_unused(&mut self, name: &str);
}

/// A job of the housekeeper's thread.
enum Job<U> {
    /// Drop a finished execution's database.
    Drop(U),
    /// Create a database ahead.
    Create,
}

/// The thread that drops and creates a target's databases, and the way to hand it jobs.
pub(crate) struct Housekeeper<U> {
    sender: Mutex<Option<SyncSender<Job<U>>>>,
    thread: Mutex<Option<JoinHandle<()>>>,
    /// The names of the databases created ahead, not yet taken, oldest first.
    ready: Arc<Mutex<VecDeque<String>>>,
}

impl<U: Send + 'static> Housekeeper<U> {
    /// A housekeeper whose thread does `work`'s jobs in order; it starts by creating the
    /// first execution's database.
    pub(crate) fn new(mut work: impl Housework<Used = U>) -> Housekeeper<U> {
        let (sender, jobs) = sync_channel::<Job<U>>(QUEUE);
        let ready = Arc::new(Mutex::new(VecDeque::new()));
        let stock = Arc::clone(&ready);
        let thread = std::thread::Builder::new()
            .name("txhunt-housekeeper".into())
            .spawn(move || {
                for job in jobs {
                    match job {
                        Job::Drop(used) => work.drop_used(used),
                        Job::Create => {
                            let name = fresh_database_name();
                            if work.create(&name) {
                                lock(&stock).push_back(name);
                            }
                        }
                    }
                }
                let unused: Vec<String> = lock(&stock).drain(..).collect();
                unused.iter().for_each(|name| work.drop_unused(name));
            })
            .ok();
        let keeper = Housekeeper {
            sender: Mutex::new(thread.is_some().then_some(sender)),
            thread: Mutex::new(thread),
            ready,
        };
        keeper.ask_ahead();
        keeper
    }

    /// The name of a database created ahead, if one is ready (it is the caller's from now
    /// on); either way the next one is asked for.
    pub(crate) fn take_ready(&self) -> Option<String> {
        let name = lock(&self.ready).pop_front();
        self.ask_ahead();
        name
    }

    /// Asks the thread for one more database ahead, if fewer than [`MAX_READY`] are ready
    /// and a job can be queued without waiting.
    fn ask_ahead(&self) {
        if lock(&self.ready).len() >= MAX_READY {
            return;
        }
        if let Some(sender) = lock(&self.sender).as_ref() {
            // A full queue already holds work enough; a closed one means the target goes.
            let _ = sender.try_send(Job::Create);
        }
    }

    /// Hands `used` to the thread to drop; gives it back when the housekeeper has finished
    /// (or its thread could not start), for the caller to drop itself.
    pub(crate) fn hand(&self, used: U) -> Result<(), U> {
        let sender = lock(&self.sender).clone();
        let Some(sender) = sender else {
            return Err(used);
        };
        sender
            .send(Job::Drop(used))
            .map_err(|refused| match refused.0 {
                Job::Drop(used) => used,
                Job::Create => unreachable!("a drop was sent"),
            })
    }

    /// Waits until every job handed over is done and the databases made ahead are dropped;
    /// later drops are given back.
    pub(crate) fn finish(&self) {
        lock(&self.sender).take();
        if let Some(thread) = lock(&self.thread).take() {
            let _ = thread.join();
        }
    }
}

/// `mutex`, locked, whether or not a holder panicked.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::{channel, Sender};

    /// Housework that tells what it did.
    struct Told(Sender<String>);

    impl Housework for Told {
        type Used = String;
        fn drop_used(&mut self, used: String) {
            let _ = self.0.send(format!("drop {used}"));
        }
        fn create(&mut self, name: &str) -> bool {
            let _ = self.0.send(format!("create {name}"));
            true
        }
        fn drop_unused(&mut self, name: &str) {
            let _ = self.0.send(format!("drop unused {name}"));
        }
    }

    #[test]
    fn a_database_made_ahead_is_taken_the_next_made_and_the_untaken_dropped_at_the_end() {
        let (tell, told) = channel();
        let keeper = Housekeeper::new(Told(tell));
        let first = told.recv().expect("the first database is made at once");
        let first = first
            .strip_prefix("create ")
            .expect("a creation")
            .to_string();
        // The creation is told before the name is ready: wait for it.
        let taken = loop {
            if let Some(name) = keeper.take_ready() {
                break name;
            }
            std::thread::yield_now();
        };
        assert_eq!(taken, first);
        assert!(keeper.hand("used".into()).is_ok());
        keeper.finish();
        let rest: Vec<String> = told.try_iter().collect();
        let created: Vec<&String> = rest.iter().filter(|s| s.starts_with("create ")).collect();
        assert!(!created.is_empty(), "the next one was asked for: {rest:?}");
        assert!(rest.contains(&"drop used".to_string()), "{rest:?}");
        for made in created {
            let name = made.strip_prefix("create ").unwrap();
            assert!(
                rest.contains(&format!("drop unused {name}")),
                "{name} made ahead and left: {rest:?}"
            );
        }
        assert_eq!(keeper.hand("late".into()), Err("late".to_string()));
    }
}
