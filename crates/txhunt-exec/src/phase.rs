//! Where a case's time goes: named phases, timed on the thread that runs them (`txhunt bench
//! fuzz` and the campaign summary's phase table).
//!
//! Timing is off on a thread until [`measure`] runs there; inside it each [`time`] adds its
//! wall time under its *path*, the names of the phases it runs in joined by `/` (e.g.
//! `oracle wss/execute`). Elsewhere [`time`] just calls its closure. A thread an oracle or
//! the protocol starts is not timed: its time is counted where the measured thread waits for
//! it.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Planning the instrumentation of a case's statements (parsing and rewriting them).
pub const INSTRUMENT: &str = "instrument";
/// Creating the case's fresh database.
pub const CREATE: &str = "create database";
/// Opening the sessions' connections.
pub const CONNECT: &str = "connect";
/// Running the setup statements.
pub const SETUP: &str = "setup";
/// Submitting statements and awaiting them (the concurrent run, without [`PROBE`] and
/// [`PAUSE`]).
pub const EXECUTE: &str = "execute";
/// Asking the server's lock-wait probe whether a statement waits.
pub const PROBE: &str = "probe";
/// The pause after a statement began to wait, for the DBMS's deadlock check.
pub const PAUSE: &str = "deadlock pause";
/// Reading the final state.
pub const FINAL_STATE: &str = "final state";
/// Dropping the case's database and closing its connections.
pub const TEARDOWN: &str = "teardown";

thread_local! {
    static CLOCK: RefCell<Option<Clock>> = const { RefCell::new(None) };
}

/// The phases open on a measured thread and the times recorded so far.
struct Clock {
    open: Vec<String>,
    times: Times,
}

/// Wall time per phase path, each including the phases nested in it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Times {
    /// Per path (e.g. `oracle wss/execute`), the time spent in it, nested phases included.
    pub inclusive: BTreeMap<String, Duration>,
    /// The whole measured time.
    pub total: Duration,
}

impl Times {
    /// Adds `other`'s times to these.
    pub fn add(&mut self, other: &Times) {
        for (path, d) in &other.inclusive {
            *self.inclusive.entry(path.clone()).or_default() += *d;
        }
        self.total += other.total;
    }

    /// Per path, the time spent in it and in no phase nested in it; `""` names the measured
    /// time outside every phase. Sorted by path.
    pub fn exclusive(&self) -> Vec<(String, Duration)> {
        let nested = |parent: &str| -> Duration {
            (self.inclusive.iter())
                .filter(|(path, _)| is_child(parent, path))
                .map(|(_, d)| *d)
                .sum()
        };
        std::iter::once((String::new(), self.total.saturating_sub(nested(""))))
            .chain(
                (self.inclusive.iter())
                    .map(|(path, d)| (path.clone(), d.saturating_sub(nested(path)))),
            )
            .collect()
    }
}

/// Whether `path` is a phase directly nested in `parent` (`""`: the top level).
fn is_child(parent: &str, path: &str) -> bool {
    let rest = if parent.is_empty() {
        Some(path)
    } else {
        path.strip_prefix(parent).and_then(|r| r.strip_prefix('/'))
    };
    rest.is_some_and(|r| !r.is_empty() && !r.contains('/'))
}

/// Runs `f` with phase timing on this thread and returns its result and the times of the
/// phases it ran. Measuring inside a measurement adds to the outer one and returns empty
/// times.
pub fn measure<R>(f: impl FnOnce() -> R) -> (R, Times) {
    let outer = CLOCK.with(|c| c.borrow().is_some());
    if outer {
        return (f(), Times::default());
    }
    CLOCK.with(|c| {
        *c.borrow_mut() = Some(Clock {
            open: Vec::new(),
            times: Times::default(),
        })
    });
    let start = Instant::now();
    let result = f();
    let total = start.elapsed();
    let clock = CLOCK
        .with(|c| c.borrow_mut().take())
        .expect("the clock set above");
    let times = Times {
        total,
        ..clock.times
    };
    (result, times)
}

/// Runs `f` as phase `name`, timed if this thread is measured.
pub fn time<R>(name: &str, f: impl FnOnce() -> R) -> R {
    let measured = CLOCK.with(|c| match c.borrow_mut().as_mut() {
        Some(clock) => {
            clock.open.push(name.to_string());
            true
        }
        None => false,
    });
    if !measured {
        return f();
    }
    let start = Instant::now();
    let result = f();
    let elapsed = start.elapsed();
    CLOCK.with(|c| {
        if let Some(clock) = c.borrow_mut().as_mut() {
            let path = clock.open.join("/");
            clock.open.pop();
            *clock.times.inclusive.entry(path).or_default() += elapsed;
        }
    });
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sleep_ms(ms: u64) {
        std::thread::sleep(Duration::from_millis(ms));
    }

    #[test]
    fn nested_phases_are_timed_by_path_and_their_own_time_is_what_nothing_nested_took() {
        let ((), times) = measure(|| {
            time("oracle", || {
                sleep_ms(5);
                time(SETUP, || sleep_ms(10));
            });
            time(SETUP, || sleep_ms(10));
        });
        let paths: Vec<&str> = times.inclusive.keys().map(String::as_str).collect();
        assert_eq!(paths, ["oracle", "oracle/setup", "setup"]);
        let own: BTreeMap<String, Duration> = times.exclusive().into_iter().collect();
        assert!(own["oracle"] >= Duration::from_millis(5));
        assert!(own["oracle"] < times.inclusive["oracle"]);
        assert!(own["oracle/setup"] >= Duration::from_millis(10));
        let sum: Duration = own.values().sum();
        assert_eq!(sum, times.total, "the exclusive times partition the total");
    }

    #[test]
    fn an_unmeasured_thread_records_nothing_and_a_nested_measure_adds_to_the_outer() {
        assert_eq!(time(PROBE, || 7), 7);
        let ((), times) = measure(|| {
            let ((), inner) = measure(|| time(PROBE, || sleep_ms(1)));
            assert_eq!(inner, Times::default());
            std::thread::spawn(|| time(SETUP, || sleep_ms(1)))
                .join()
                .expect("joins");
        });
        let paths: Vec<&str> = times.inclusive.keys().map(String::as_str).collect();
        assert_eq!(paths, ["probe"]);
    }
}
