//! Databases dropped off the critical path: an execution hands its database (or schema) to a
//! thread of the target's and the next execution starts at once. At most [`QUEUE`] drops wait
//! (then handing one over waits too), and the target waits for every drop it handed over
//! before it goes, so that its server is never stopped under one.

use std::sync::mpsc::{sync_channel, SyncSender};
use std::sync::Mutex;
use std::thread::JoinHandle;

/// How many handed-over drops may wait.
const QUEUE: usize = 4;

/// The thread that drops databases (each a job `J`), and the way to hand it one.
pub(crate) struct Dropper<J> {
    sender: Mutex<Option<SyncSender<J>>>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl<J: Send + 'static> Dropper<J> {
    /// A dropper whose thread does `work` for each job handed over, in order.
    pub(crate) fn new(mut work: impl FnMut(J) + Send + 'static) -> Dropper<J> {
        let (sender, jobs) = sync_channel::<J>(QUEUE);
        let thread = std::thread::Builder::new()
            .name("txhunt-drop".into())
            .spawn(move || jobs.into_iter().for_each(&mut work))
            .ok();
        Dropper {
            sender: Mutex::new(thread.is_some().then_some(sender)),
            thread: Mutex::new(thread),
        }
    }

    /// Hands `job` to the thread; gives it back when the dropper has finished (or its thread
    /// could not start), for the caller to do itself.
    pub(crate) fn hand(&self, job: J) -> Result<(), J> {
        let sender = self
            .sender
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        match sender {
            Some(sender) => sender.send(job).map_err(|refused| refused.0),
            None => Err(job),
        }
    }

    /// Waits until every job handed over is done; later ones are given back.
    pub(crate) fn finish(&self) {
        self.sender.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(thread) = self.thread.lock().unwrap_or_else(|p| p.into_inner()).take() {
            let _ = thread.join();
        }
    }
}
