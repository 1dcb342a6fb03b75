//! The threads sessions run on, kept between executions: starting a thread per session per
//! case, and joining it afterwards, was part of every case's cost. A thread that served a
//! session waits for the next one; at most [`MAX_IDLE`] wait, the others end.

use std::sync::mpsc::{channel, Sender};
use std::sync::Mutex;

/// What a session thread does for one session, to the session's end.
pub(crate) type Job = Box<dyn FnOnce() + Send>;

/// At most this many threads wait for a session.
const MAX_IDLE: usize = 64;

/// Threads waiting for a session: where to send it.
struct Pool {
    idle: Mutex<Vec<Sender<Job>>>,
}

/// The process's session threads.
static THREADS: Pool = Pool {
    idle: Mutex::new(Vec::new()),
};

/// Runs `job` on a waiting session thread, or on a new one.
pub(crate) fn run(job: Job) -> std::io::Result<()> {
    THREADS.run(job)
}

impl Pool {
    /// Runs `job` on one of this pool's waiting threads, or on a new one.
    fn run(&'static self, job: Job) -> std::io::Result<()> {
        let mut job = job;
        loop {
            let idle = self.idle.lock().unwrap_or_else(|p| p.into_inner()).pop();
            let Some(thread) = idle else {
                break;
            };
            // A thread that ended (a panic in a driver) gives the job back.
            match thread.send(job) {
                Ok(()) => return Ok(()),
                Err(returned) => job = returned.0,
            }
        }
        std::thread::Builder::new()
            .name("session".into())
            .spawn(move || self.serve(job))
            .map(drop)
    }

    /// A session thread's life: `first`, then each session handed to it while it waits.
    fn serve(&'static self, first: Job) {
        let mut job = first;
        loop {
            job();
            let (tx, rx) = channel();
            {
                let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
                if idle.len() >= MAX_IDLE {
                    return;
                }
                idle.push(tx);
            }
            match rx.recv() {
                Ok(next) => job = next,
                Err(_) => return,
            }
        }
    }

    /// How many threads wait.
    #[cfg(test)]
    fn waiting(&self) -> usize {
        self.idle.lock().unwrap_or_else(|p| p.into_inner()).len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;

    #[test]
    fn a_thread_that_served_a_session_serves_the_next() {
        let pool: &'static Pool = Box::leak(Box::new(Pool {
            idle: Mutex::new(Vec::new()),
        }));
        let (tx, rx) = channel();
        let first = tx.clone();
        pool.run(Box::new(move || {
            first.send(std::thread::current().id()).unwrap()
        }))
        .unwrap();
        let served = rx.recv().unwrap();
        while pool.waiting() == 0 {
            std::thread::yield_now();
        }
        pool.run(Box::new(move || {
            tx.send(std::thread::current().id()).unwrap()
        }))
        .unwrap();
        assert_eq!(
            rx.recv().unwrap(),
            served,
            "the thread serves the second session"
        );
    }
}
