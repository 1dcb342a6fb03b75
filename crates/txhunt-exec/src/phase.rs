//! Where a case's time goes: named phases, timed on the thread that runs them (`txhunt bench
//! fuzz` and the campaign summary's phase table).
//!
//! Timing is off on a thread until [`measure`] runs there; inside it each [`time`] adds its
//! wall time under its *path*, the names of the phases it runs in joined by `/` (e.g.
//! `oracle wss/execute`). Elsewhere [`time`] just calls its closure. A thread an oracle or
//! the protocol starts is not timed: its time is counted where the measured thread waits for
//! it; except the jobs of [`concurrently`], each timed as if it ran on the measured thread,
//! and the time they ran at once recorded as [`Times::overlap`], so that the phases' own
//! times less the overlap still add up to the total.

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
    /// Per path where jobs ran at once ([`concurrently`]), how much longer their work took in
    /// all than the wait for them: time counted in more than one phase.
    pub overlap: BTreeMap<String, Duration>,
}

impl Times {
    /// Adds `other`'s times to these.
    pub fn add(&mut self, other: &Times) {
        for (path, d) in &other.inclusive {
            *self.inclusive.entry(path.clone()).or_default() += *d;
        }
        for (path, d) in &other.overlap {
            *self.overlap.entry(path.clone()).or_default() += *d;
        }
        self.total += other.total;
    }

    /// The time counted in more than one phase because jobs ran at once: the phases' own
    /// times ([`Times::exclusive`]) add up to the total and this.
    pub fn overlapped(&self) -> Duration {
        self.overlap.values().sum()
    }

    /// Per path, the time spent in it and in no phase nested in it; `""` names the measured
    /// time outside every phase. Sorted by path. Where nested phases ran at once, their
    /// overlap is not taken off their parent's own time.
    pub fn exclusive(&self) -> Vec<(String, Duration)> {
        let own = |parent: &str, time: Duration| -> Duration {
            let nested: Duration = (self.inclusive.iter())
                .filter(|(path, _)| is_child(parent, path))
                .map(|(_, d)| *d)
                .sum();
            let overlap = self.overlap.get(parent).copied().unwrap_or_default();
            (time + overlap).saturating_sub(nested)
        };
        std::iter::once((String::new(), own("", self.total)))
            .chain((self.inclusive.iter()).map(|(path, d)| (path.clone(), own(path, *d))))
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
    measure_within(Vec::new(), f)
}

/// Runs `jobs` at once and returns their results in order: the last on this thread, the
/// others each on a thread of its own (one job runs here alone). On a measured thread every
/// job is timed as if it ran here, its phases nested in the ones open now, and the time the
/// jobs ran at once is added to [`Times::overlap`] at the open path.
pub fn concurrently<'a, R: Send>(mut jobs: Vec<Box<dyn FnOnce() -> R + Send + 'a>>) -> Vec<R> {
    let Some(here) = jobs.pop() else {
        return Vec::new();
    };
    let open = CLOCK.with(|c| c.borrow().as_ref().map(|clock| clock.open.clone()));
    let start = Instant::now();
    let (results, spawned, took_here) = std::thread::scope(|scope| {
        let handles: Vec<_> = (jobs.into_iter())
            .map(|job| {
                let open = open.clone();
                scope.spawn(move || match open {
                    Some(open) => {
                        let (result, times) = measure_within(open, job);
                        (result, Some(times))
                    }
                    None => (job(), None),
                })
            })
            .collect();
        let last = here();
        let took_here = start.elapsed();
        let (mut results, spawned): (Vec<R>, Vec<Option<Times>>) = (handles.into_iter())
            .map(|h| {
                h.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .unzip();
        results.push(last);
        (results, spawned, took_here)
    });
    let waited = start.elapsed();
    CLOCK.with(|c| {
        if let Some(clock) = c.borrow_mut().as_mut() {
            let mut worked = took_here;
            for times in spawned.into_iter().flatten() {
                worked += times.total;
                clock.times.add(&Times {
                    total: Duration::ZERO,
                    ..times
                });
            }
            let path = clock.open.join("/");
            *clock.times.overlap.entry(path).or_default() += worked.saturating_sub(waited);
        }
    });
    results
}

/// Runs `f` measured on this thread, its phases nested in `open` (a measured thread's open
/// phases): the times of those phases, by their whole path, and `f`'s time as the total.
fn measure_within<R>(open: Vec<String>, f: impl FnOnce() -> R) -> (R, Times) {
    CLOCK.with(|c| {
        *c.borrow_mut() = Some(Clock {
            open,
            times: Times::default(),
        })
    });
    let start = Instant::now();
    let result = f();
    let total = start.elapsed();
    let clock = CLOCK
        .with(|c| c.borrow_mut().take())
        .expect("the clock set above");
    (
        result,
        Times {
            total,
            ..clock.times
        },
    )
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
    fn jobs_run_at_once_are_timed_in_their_phases_and_their_overlap_keeps_the_sum() {
        let together = std::sync::Barrier::new(2);
        let job = |name: &'static str, result: u8| {
            let together = &together;
            Box::new(move || {
                // Both jobs must be running for either to pass: they ran at once.
                together.wait();
                time(name, || sleep_ms(20));
                result
            }) as Box<dyn FnOnce() -> u8 + Send + '_>
        };
        let (results, times) = measure(|| {
            time("oracles", || {
                concurrently(vec![job(SETUP, 1), job(EXECUTE, 2)])
            })
        });
        assert_eq!(results, [1, 2], "in the order given");
        assert!(times.inclusive["oracles/setup"] >= Duration::from_millis(20));
        assert!(times.inclusive["oracles/execute"] >= Duration::from_millis(20));
        assert!(times.overlap["oracles"] > Duration::ZERO);
        let own: Duration = times.exclusive().iter().map(|(_, d)| *d).sum();
        assert_eq!(own, times.total + times.overlapped());
        let unmeasured = concurrently(vec![job(SETUP, 3), job(EXECUTE, 4)]);
        assert_eq!(unmeasured, [3, 4]);
        assert!(concurrently::<u8>(Vec::new()).is_empty());
    }

    #[test]
    fn the_overlap_of_jobs_run_at_once_inside_a_job_run_at_once_is_kept() {
        let inner = || {
            concurrently(vec![
                Box::new(|| time(SETUP, || sleep_ms(10))) as Box<dyn FnOnce() + Send>,
                Box::new(|| time(SETUP, || sleep_ms(10))),
            ])
        };
        let (_, times) = measure(|| {
            concurrently(vec![
                Box::new(|| time("wss", || drop(inner()))) as Box<dyn FnOnce() + Send>,
                Box::new(|| time("sdg", || sleep_ms(5))),
            ])
        });
        assert!(
            times.overlap.get("wss").is_some_and(|d| !d.is_zero()),
            "{times:?}"
        );
        let own: Duration = times.exclusive().iter().map(|(_, d)| *d).sum();
        assert_eq!(own, times.total + times.overlapped());
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
