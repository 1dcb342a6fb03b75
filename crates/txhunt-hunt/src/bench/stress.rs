//! `txhunt bench stress`: a stress run recorded (every statement's interval and row versions)
//! versus a plain client loop of the same sessions issuing the same transactions without
//! recording anything, committed transactions per second each way and their ratio; and the
//! time the DSG oracle and the invariant take over the recorded history.

use super::BenchError;
use crate::stress::Stress;
use serde::Serialize;
use std::fmt::Write;
use std::sync::atomic::AtomicBool;
use txhunt_db::Target;
use txhunt_exec::stress::Counters;
use txhunt_exec::Executor;

/// One way's runs.
#[derive(Debug, Serialize)]
pub struct Way {
    /// Committed transactions per second, per run.
    pub per_second: Vec<f64>,
    /// Their median.
    pub median: f64,
    /// Transactions an error ended, per second, per run: a slower way's transactions overlap
    /// longer, and at REPEATABLE READ or SERIALIZABLE more of them conflict.
    pub aborted_per_second: Vec<f64>,
    /// txhunt's own CPU time (every thread, user and system) per committed transaction, in
    /// microseconds, per run: on a machine the client shares with the server, what the client
    /// spends is taken from the server.
    pub client_cpu_us: Vec<f64>,
}

/// The whole run of `txhunt bench stress`.
#[derive(Debug, Serialize)]
pub struct StressBenchReport {
    /// The target's label.
    pub target: String,
    /// The workload.
    pub workload: String,
    /// The isolation level.
    pub isolation: String,
    /// The seed of the sessions' transactions.
    pub seed: u64,
    /// Sessions.
    pub sessions: usize,
    /// Seconds per run.
    pub seconds: f64,
    /// The plain client loop.
    pub plain: Way,
    /// The recorded stress run.
    pub recorded: Way,
    /// `recorded.median / plain.median`.
    pub ratio: f64,
    /// Statements in the largest recorded history.
    pub history_statements: u64,
    /// Seconds the DSG oracle and the invariant took over it.
    pub check_seconds: f64,
}

/// CPU time this process has used so far, every thread, user and system.
fn own_cpu() -> std::time::Duration {
    // SAFETY: getrusage writes the struct it is given and nothing else.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let time =
        |t: libc::timeval| std::time::Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    time(usage.ru_utime) + time(usage.ru_stime)
}

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

/// Runs `hunt` on `target` `repeat` times each way, the ways alternating (so that drift in
/// the machine's load weighs on both alike).
pub fn stress(
    target: &dyn Target,
    hunt: &Stress,
    repeat: usize,
) -> Result<StressBenchReport, BenchError> {
    let executor = Executor {
        instrument: true,
        ..Executor::default()
    };
    let stop = AtomicBool::new(false);
    // Per way (plain, recorded): committed/s, aborted/s and client CPU µs per transaction.
    let mut runs: [[Vec<f64>; 3]; 2] = Default::default();
    let (mut history_statements, mut check_seconds) = (0, 0.0);
    for _ in 0..repeat.max(1) {
        for record in [false, true] {
            let cpu = own_cpu();
            let run = hunt.run(&executor, target, record, &Counters::default(), &stop)?;
            let cpu_us = (own_cpu() - cpu).as_secs_f64() * 1e6 / run.committed.max(1) as f64;
            let seconds = run.elapsed.as_secs_f64().max(1e-9);
            let sample = [
                run.committed as f64 / seconds,
                run.aborted as f64 / seconds,
                cpu_us,
            ];
            for (values, value) in runs[usize::from(record)].iter_mut().zip(sample) {
                values.push(value);
            }
            if record && run.statements >= history_statements {
                history_statements = run.statements;
                check_seconds = hunt.judge(&executor, target, &run).check_seconds;
            }
        }
    }
    let [plain, recorded] = runs.map(|[per_second, aborted_per_second, client_cpu_us]| Way {
        median: median(&per_second),
        per_second,
        aborted_per_second,
        client_cpu_us,
    });
    Ok(StressBenchReport {
        target: target.label(),
        workload: hunt.workload.name().into(),
        isolation: hunt.isolation.to_string(),
        seed: hunt.seed,
        sessions: hunt.sessions,
        seconds: hunt.duration.as_secs_f64(),
        ratio: recorded.median / plain.median.max(1e-9),
        plain,
        recorded,
        history_statements,
        check_seconds,
    })
}

impl StressBenchReport {
    /// The report as text.
    pub fn text(&self) -> String {
        let mut text = String::new();
        let _ = writeln!(
            text,
            "bench stress on {}: {} at {}, seed {}, {} sessions, {:.0} s per run",
            self.target, self.workload, self.isolation, self.seed, self.sessions, self.seconds
        );
        let runs = |values: &[f64]| {
            (values.iter())
                .map(|r| format!("{r:.0}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        for (name, way) in [
            ("plain client loop", &self.plain),
            ("recorded stress", &self.recorded),
        ] {
            let _ = writeln!(
                text,
                "{name:<17}: {:.0} committed transactions/s (runs: {}; aborted/s: {}; txhunt's CPU per transaction: {} µs)",
                way.median,
                runs(&way.per_second),
                runs(&way.aborted_per_second),
                runs(&way.client_cpu_us)
            );
        }
        let _ = writeln!(text, "ratio recorded / plain: {:.2}", self.ratio);
        let _ = writeln!(
            text,
            "checking the largest history ({} statements): {:.2} s",
            self.history_statements, self.check_seconds
        );
        text
    }
}
