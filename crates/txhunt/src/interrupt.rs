//! Ctrl-C: servers txhunt started never outlive it.
//!
//! SIGTERM and SIGHUP are handled as Ctrl-C (SIGINT) is, so a run stopped by `kill` or a CI
//! timeout cleans up too. (Testbed servers run in process groups of their own, so a Ctrl-C
//! typed in a terminal reaches txhunt alone.) By default Ctrl-C kills every testbed server
//! and deletes its files, then exits with 130; it holds stdout and stderr meanwhile, so what
//! a running case sees of its server going away is never printed (as a bug candidate, say).
//! A command that can stop cleanly (`server`, `shell`) asks for a *graceful* Ctrl-C instead:
//! the first one only sets a flag it waits for; a second one exits at once.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};

static GRACEFUL: AtomicBool = AtomicBool::new(false);
static REQUESTED: Mutex<bool> = Mutex::new(false);
static SIGNAL: Condvar = Condvar::new();
static STOP: AtomicBool = AtomicBool::new(false);

/// Installs the handler; call once at start-up.
pub fn install() {
    let result = ctrlc::set_handler(|| {
        let mut requested = REQUESTED.lock().unwrap_or_else(|p| p.into_inner());
        if GRACEFUL.load(Ordering::SeqCst) && !*requested {
            *requested = true;
            STOP.store(true, Ordering::SeqCst);
            SIGNAL.notify_all();
            return;
        }
        let _out = std::io::stdout().lock();
        let _err = std::io::stderr().lock();
        txhunt_db::testbed::cleanup_all();
        std::process::exit(130);
    });
    if let Err(e) = result {
        tracing::warn!("could not install the Ctrl-C handler: {e}");
    }
}

/// From now on the first Ctrl-C only sets the flag [`wait`] and [`requested`] see.
pub fn make_graceful() {
    GRACEFUL.store(true, Ordering::SeqCst);
}

/// Whether Ctrl-C was pressed (after [`make_graceful`]).
pub fn requested() -> bool {
    *REQUESTED.lock().unwrap_or_else(|p| p.into_inner())
}

/// The flag the first Ctrl-C sets (after [`make_graceful`]): for work that polls a stop flag.
pub fn stop_flag() -> &'static AtomicBool {
    &STOP
}

/// Blocks until Ctrl-C.
pub fn wait() {
    let mut requested = REQUESTED.lock().unwrap_or_else(|p| p.into_inner());
    while !*requested {
        requested = SIGNAL.wait(requested).unwrap_or_else(|p| p.into_inner());
    }
}
