//! `txhunt bench protocol`: what txhunt's protocol costs over the physical floor. The same
//! generated cases run two ways, alternating which goes first:
//!
//! * **protocol**: [`Executor::execute`] as `txhunt fuzz` runs a case (not instrumented): a
//!   fresh database, one session per transaction, one statement at a time with exact
//!   lock-wait detection, the final state read, the database dropped;
//! * **raw**: the setup and then every step in submitted order on one connection to a fresh
//!   database, nothing probed, nothing read back. Creating and dropping that database is not
//!   timed: a campaign could reuse databases, and raw replay is the floor such reuse aims at.
//!
//! On one connection a step blocks nothing and a second BEGIN ends or nests the first
//! transaction: raw replay does the same statements' work, not the same schedule.

use super::BenchError;
use serde::Serialize;
use std::fmt::Write;
use std::time::Instant;
use txhunt_db::{SessionConfig, Target, TargetError};
use txhunt_exec::Executor;
use txhunt_model::{Isolation, TestCase};
use txhunt_sql::{dialect, generate, GenConfig};

/// The whole run of `txhunt bench protocol`.
#[derive(Debug, Serialize)]
pub struct ProtocolReport {
    /// The target's name.
    pub target: String,
    /// Cases run (each at one of the target's levels, in turn).
    pub cases: usize,
    /// Statements per run of all cases (setup and steps).
    pub statements: usize,
    /// Sum of the cases' median wall times through the protocol.
    pub protocol_ms: f64,
    /// Sum of the cases' median wall times of raw replay.
    pub raw_ms: f64,
    /// `protocol_ms / raw_ms`.
    pub ratio: f64,
}

/// Runs `cases` generated cases (from `seed`) on `target` through the protocol and raw,
/// `repeat` times each (the median counts), and reports the totals.
pub fn protocol(
    target: &dyn Target,
    cases: usize,
    seed: u64,
    repeat: usize,
) -> Result<ProtocolReport, BenchError> {
    let profile = target.profile();
    let levels = profile.isolation_levels();
    let dialect = dialect::for_family(profile.family());
    let executor = Executor::default();
    let (mut protocol_ms, mut raw_ms, mut statements) = (0.0, 0.0, 0);
    for i in 0..cases {
        let level = levels[i % levels.len()];
        let case = generate(seed + i as u64, &GenConfig::default(), dialect, level, None).case;
        statements += case.init.len() + case.steps.len();
        let through_protocol = |_: usize| -> Result<f64, TargetError> {
            let start = Instant::now();
            executor.execute(target, &case, level)?;
            Ok(ms_since(start))
        };
        let raw = |_: usize| raw_replay(target, &case, level);
        if i % 2 == 0 {
            protocol_ms += median(repeat, through_protocol)?;
            raw_ms += median(repeat, raw)?;
        } else {
            raw_ms += median(repeat, raw)?;
            protocol_ms += median(repeat, through_protocol)?;
        }
    }
    Ok(ProtocolReport {
        target: target.name(),
        cases,
        statements,
        ratio: protocol_ms / raw_ms,
        protocol_ms,
        raw_ms,
    })
}

/// The wall time, in ms, of `case`'s setup and steps in submitted order on one connection
/// to a fresh database at `level` (the database's creation and drop not counted). Statement
/// errors are part of the work, not failures.
fn raw_replay(target: &dyn Target, case: &TestCase, level: Isolation) -> Result<f64, TargetError> {
    let db = target.create_database()?;
    let config = SessionConfig {
        isolation: level,
        mode: case.header.mode,
    };
    let start = Instant::now();
    let mut conn = db.connect(config, None)?;
    for stmt in case.init.iter().chain(case.steps.iter().map(|s| &s.stmt)) {
        conn.execute(&stmt.sql);
    }
    drop(conn);
    let ms = ms_since(start);
    drop(db);
    Ok(ms)
}

/// The median of `repeat` (at least 1) times `run` gives.
fn median(
    repeat: usize,
    run: impl Fn(usize) -> Result<f64, TargetError>,
) -> Result<f64, TargetError> {
    let mut times = (0..repeat.max(1))
        .map(run)
        .collect::<Result<Vec<f64>, _>>()?;
    times.sort_by(f64::total_cmp);
    Ok(times[times.len() / 2])
}

/// Milliseconds since `start`.
fn ms_since(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1000.0
}

impl ProtocolReport {
    /// The report for people.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "protocol on {}: {} generated cases, {} statements; protocol vs raw replay on one connection (median of runs)",
            self.target, self.cases, self.statements
        );
        let _ = writeln!(
            out,
            "protocol {:.1} ms, raw {:.1} ms, ratio {:.2}",
            self.protocol_ms, self.raw_ms, self.ratio
        );
        out
    }
}
