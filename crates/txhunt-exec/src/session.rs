//! A client session on its own thread: statements go in one at a time, outcomes and lock waits
//! come out through a shared slot the executor waits on.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use txhunt_db::{Connection, Interrupt, LockWaitHook};
use txhunt_model::Outcome;

/// A statement's end, as the session thread saw it.
#[derive(Debug, Clone)]
pub struct Done {
    /// What the statement did.
    pub outcome: Outcome,
    /// Whether a transaction was open on the session afterwards, if the driver can tell and
    /// was asked ([`asks_transaction_state`]).
    pub in_txn: Option<bool>,
    /// Position among all completions of this execution (shared counter), for ordering
    /// statements that resumed together.
    pub seq: u64,
    /// Whether the DBMS reported a deadlock check for the statement
    /// ([`LockWaitHook::deadlock_checked`]): it waited on a lock, however soon it ended.
    pub waited: bool,
}

/// What the executor and the session thread share.
#[derive(Default)]
struct SlotState {
    /// How many times the DBMS made the current statement wait on a lock (busy-handler calls).
    waits: u64,
    /// How many times the executor let a waiting statement retry.
    pokes: u64,
    /// The executor asked every wait to give up.
    cancelled: bool,
    /// The current statement's end, once it ended.
    done: Option<Done>,
    /// A statement was sent and has not ended yet.
    running: bool,
    /// The DBMS reported that its deadlock check for the current statement's lock wait ran.
    checked: bool,
    /// The session thread has ended (it closed its connection).
    exited: bool,
}

#[derive(Default)]
struct Slot {
    state: Mutex<SlotState>,
    changed: Condvar,
}

impl Slot {
    fn lock(&self) -> MutexGuard<'_, SlotState> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Waits for a change until `deadline`: the state again, or `None` once it has passed.
    fn wait_until<'a>(
        &self,
        state: MutexGuard<'a, SlotState>,
        deadline: Instant,
    ) -> Option<MutexGuard<'a, SlotState>> {
        let now = Instant::now();
        if now >= deadline {
            return None;
        }
        let waited = self.changed.wait_timeout(state, deadline - now);
        Some(waited.map_or_else(|poisoned| poisoned.into_inner().0, |(guard, _)| guard))
    }
}

impl LockWaitHook for Slot {
    /// Records the wait, then parks the statement until the executor pokes (retry) or cancels.
    fn waiting(&self) -> bool {
        let mut state = self.lock();
        state.waits += 1;
        self.changed.notify_all();
        let poke = state.pokes;
        while state.pokes == poke && !state.cancelled {
            state = self
                .changed
                .wait(state)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
        }
        !state.cancelled
    }

    fn deadlock_checked(&self) {
        self.lock().checked = true;
        self.changed.notify_all();
    }
}

/// Marks the session thread ended when dropped, however the thread ends (a panic too).
struct Exit(Arc<Slot>);

impl Drop for Exit {
    fn drop(&mut self) {
        self.0.lock().exited = true;
        self.0.changed.notify_all();
    }
}

/// How a pending statement stands.
#[derive(Debug)]
pub enum Pending {
    /// It ended.
    Done(Done),
    /// The DBMS reported (or the detector judged) that it waits on a lock.
    Waiting,
    /// Neither, within the time allowed.
    Running,
}

/// One session: a thread owning a connection (a session thread kept between executions,
/// [`crate::session_threads`]).
pub struct Session {
    /// The server's id for this session, for lock-wait probes.
    pub server_id: Option<String>,
    commands: Option<Sender<String>>,
    slot: Arc<Slot>,
    interrupt: Arc<dyn Interrupt>,
    /// How long [`Session::settle`] checks for the statement's end before it sleeps.
    spin: Duration,
}

/// The lock-wait hook of a session to be: its connection is opened with it
/// ([`SessionHook::hook`]) before the session starts ([`Session::serve`]), so that connections
/// can be opened ahead, on another thread.
#[derive(Default)]
pub struct SessionHook(Arc<Slot>);

impl SessionHook {
    /// What the connection reports its lock waits to.
    pub fn hook(&self) -> Arc<dyn LockWaitHook> {
        Arc::clone(&self.0) as Arc<dyn LockWaitHook>
    }
}

impl Session {
    /// Runs a session around the connection `connect` opens, on a session thread;
    /// `completions` numbers completed statements across all sessions of one execution.
    /// `spin`: how long [`Session::settle`] checks for a statement's end before it sleeps
    /// ([`SPIN`] where statements run in this process, zero where a server needs the CPU).
    pub fn start(
        connect: impl FnOnce(
            Arc<dyn LockWaitHook>,
        ) -> Result<Box<dyn Connection>, txhunt_db::TargetError>,
        completions: Arc<AtomicU64>,
        spin: Duration,
    ) -> Result<Session, txhunt_db::TargetError> {
        let hook = SessionHook::default();
        let conn = connect(hook.hook())?;
        Session::serve(conn, hook, completions, spin)
    }

    /// Runs a session around `conn`, opened with `hook`'s [`SessionHook::hook`], on a session
    /// thread; `completions` and `spin` as for [`Session::start`].
    pub fn serve(
        conn: Box<dyn Connection>,
        SessionHook(slot): SessionHook,
        completions: Arc<AtomicU64>,
        spin: Duration,
    ) -> Result<Session, txhunt_db::TargetError> {
        let interrupt = conn.interrupter();
        let server_id = conn.session_id();
        let (tx, rx) = channel::<String>();
        let thread_slot = Arc::clone(&slot);
        let serve = move || {
            let exit = Exit(Arc::clone(&thread_slot));
            let mut conn = conn;
            for sql in rx {
                let outcome = conn.execute(&sql);
                let in_txn = asks_transaction_state(&outcome, &sql)
                    .then(|| conn.in_transaction())
                    .flatten();
                let seq = completions.fetch_add(1, Ordering::SeqCst);
                let mut state = thread_slot.lock();
                state.running = false;
                let waited = state.checked;
                state.done = Some(Done {
                    outcome,
                    in_txn,
                    seq,
                    waited,
                });
                thread_slot.changed.notify_all();
            }
            // The connection is closed before the session counts as ended.
            drop(conn);
            drop(exit);
        };
        crate::session_threads::run(Box::new(serve))
            .map_err(|e| txhunt_db::TargetError::db("starting a session thread", e))?;
        Ok(Session {
            server_id,
            commands: Some(tx),
            slot,
            interrupt,
            spin,
        })
    }

    /// Sends a statement; returns the wait count to compare against when settling it.
    pub fn submit(&self, sql: &str) -> u64 {
        let mut state = self.slot.lock();
        state.done = None;
        state.running = true;
        state.checked = false;
        let baseline = state.waits;
        drop(state);
        if let Some(tx) = &self.commands {
            // A send fails only if the thread is gone; `settle` then reports it as running.
            let _ = tx.send(sql.to_string());
        }
        baseline
    }

    /// Waits up to `limit` until the DBMS reports that its deadlock check for the pending
    /// statement's lock wait ran ([`LockWaitHook::deadlock_checked`]) or the statement ended;
    /// false if neither happened in time.
    pub fn await_deadlock_check(&self, limit: Duration) -> bool {
        let deadline = Instant::now() + limit;
        let mut state = self.slot.lock();
        while !(state.checked || state.done.is_some() || state.exited) {
            match self.slot.wait_until(state, deadline) {
                Some(next) => state = next,
                None => return false,
            }
        }
        true
    }

    /// Lets a waiting statement retry; returns the wait count to compare against.
    pub fn poke(&self) -> u64 {
        let mut state = self.slot.lock();
        state.pokes += 1;
        self.slot.changed.notify_all();
        state.waits
    }

    /// Tells every present and future lock wait on this session to give up.
    pub fn cancel_waits(&self) {
        let mut state = self.slot.lock();
        state.cancelled = true;
        self.slot.changed.notify_all();
    }

    /// Sends no more statements and cancels every lock wait: the session thread closes its
    /// connection once its statement ends. Dropping the session then waits for that; hanging
    /// up several sessions first lets them close at once.
    pub fn hang_up(&mut self) {
        self.cancel_waits();
        self.commands = None;
    }

    /// Asks the DBMS to stop the running statement.
    pub fn interrupt(&self) {
        self.interrupt.interrupt();
    }

    /// Waits up to `limit` for the statement to end or for a lock wait newer than `baseline`
    /// (when `waits_count` is true; otherwise only the end counts). The session's `spin` of
    /// it is spent checking, not asleep: most statements of an embedded engine end within
    /// [`SPIN`], and a thread that slept costs a wake-up and a context switch.
    pub fn settle(&self, baseline: u64, limit: Duration, waits_count: bool) -> Pending {
        let start = Instant::now();
        let deadline = start + limit;
        let spin_until = start + self.spin.min(limit);
        let mut state = self.slot.lock();
        loop {
            if let Some(done) = state.done.take() {
                return Pending::Done(done);
            }
            if waits_count && state.waits > baseline {
                return Pending::Waiting;
            }
            if Instant::now() < spin_until {
                drop(state);
                for _ in 0..SPIN_BATCH {
                    std::hint::spin_loop();
                }
                state = self.slot.lock();
                continue;
            }
            match self.slot.wait_until(state, deadline) {
                Some(next) => state = next,
                None => return Pending::Running,
            }
        }
    }
}

/// How long [`Session::settle`] checks for the end of a statement an embedded engine runs
/// before it sleeps until then. On a server target it does not spin: there the CPU it would
/// take is the server's (measured: no gain on MariaDB or PostgreSQL, less with 2 workers).
pub const SPIN: Duration = Duration::from_micros(40);
/// Spin-loop hints between two checks while spinning.
const SPIN_BATCH: u32 = 64;

/// How long a closing session waits for a statement it interrupted before interrupting it
/// again.
const INTERRUPT_AGAIN: Duration = Duration::from_millis(500);

impl Drop for Session {
    /// Cancels any wait, interrupts a statement still running (only then: a cancel that lands
    /// after the statement ended could hit whatever the connection runs next), closes the
    /// connection and waits until its thread is done with it (bounded: a thread stuck in a
    /// driver call is left to finish on its own).
    fn drop(&mut self) {
        self.hang_up();
        let deadline = Instant::now() + Duration::from_secs(5);
        let mut next_interrupt = Instant::now();
        let mut state = self.slot.lock();
        while !state.exited {
            let now = Instant::now();
            if now >= deadline {
                // Stuck in a driver call: left to finish on its own.
                return;
            }
            if state.running && now >= next_interrupt {
                drop(state);
                self.interrupt.interrupt();
                next_interrupt = Instant::now() + INTERRUPT_AGAIN;
                state = self.slot.lock();
                continue;
            }
            let wake = if state.running {
                next_interrupt.min(deadline)
            } else {
                deadline
            };
            state = (self.slot.changed)
                .wait_timeout(state, wake.saturating_duration_since(now))
                .map(|(guard, _)| guard)
                .unwrap_or_else(|poisoned| poisoned.into_inner().0);
        }
    }
}

/// Whether the driver is asked if a transaction is open after `sql` ended with `outcome`: after
/// an error (did it end the transaction?) and after a statement that is neither transaction
/// control, a read nor a write (DDL commits on some DBMSs, `SET autocommit` changes what
/// opens one). After the others, in autocommit mode, the statement's kind says it, and the
/// question would cost a round trip (MariaDB's `SELECT @@in_transaction`) for every statement.
fn asks_transaction_state(outcome: &Outcome, sql: &str) -> bool {
    outcome.error().is_some() || txhunt_model::StmtKind::of(sql) == txhunt_model::StmtKind::Other
}
