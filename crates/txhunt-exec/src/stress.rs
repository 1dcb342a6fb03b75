//! Stress execution: truly concurrent sessions, no lock-step.
//!
//! [`Executor::stress`] runs a workload's setup on a fresh database, then `sessions` threads,
//! each on its own connection, each running its stream of transactions ([`TxnSource`]) as
//! fast as the DBMS lets it until the duration is over (a transaction under way is finished).
//! Nothing is submitted in a global order: what interleaves is the DBMS's business, so timing
//! races (inside a commit, a reader overlapping a writer's commit step, background work under
//! load) can happen, which the exact protocol excludes by design.
//!
//! What is recorded (unless [`StressConfig::record`] is off, for a plain client loop to
//! compare throughput with): every statement, its outcome, its invocation and completion times
//! on a monotonic clock ([`Interval`]), and, instrumented as [`crate::instrumented`] does, the
//! row versions it read and wrote. A statement's version is its index in invocation order,
//! taken from one counter when it is invoked, so the run is a [`TestCase`] whose steps are the
//! statements in invocation order with a [`History`] of the usual kind: every oracle that
//! judges histories (the DSG) judges a stress run as it judges a case.
//!
//! Once the setup ran, every session's connection is told the schema is fixed
//! ([`txhunt_db::Connection::schema_fixed`]): a workload's transactions read and write rows only.
//!
//! An error ends its transaction: the session sends ROLLBACK (as an application would) and
//! goes on with its next transaction. A statement that runs longer than the executor's
//! statement timeout is interrupted and recorded as a hang, and its session stops.

use crate::instrumented::{Deferred, Recorder};
use crate::Executor;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};
use txhunt_db::{Connection, Interrupt, LockWaitHook, SessionConfig, Target, TargetError};
use txhunt_model::access::{Accesses, Version};
use txhunt_model::{
    Event, History, Isolation, Mode, Outcome, Step, StepRecord, Stmt, TestCase, TxnRecord,
    TxnStatus,
};
use txhunt_sql::plan_cache::PlanCache;

mod idle;

/// The transactions a stress run's sessions run.
pub trait TxnSource: Sync {
    /// The statements of transaction `n` (from 0) of session `session` (from 0), BEGIN to
    /// COMMIT.
    fn txn(&self, session: usize, n: u64) -> Vec<String>;
}

/// How a stress run is run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StressConfig {
    /// How many sessions run at once.
    pub sessions: usize,
    /// The isolation level of every session.
    pub isolation: Isolation,
    /// The concurrency-control mode, where the target has several.
    pub mode: Option<Mode>,
    /// How long new transactions are started.
    pub duration: Duration,
    /// Whether to record the history (off: a plain client loop that only counts).
    pub record: bool,
    /// No transaction starts once this run has run this many statements (a recorded history
    /// is held in memory, and checked whole).
    pub max_statements: u64,
    /// Idle transactions held open beside the sessions through the run, each on a connection
    /// of its own: each read a side table (`txh_idle`) and, except on SQLite-family targets,
    /// inserted a row into it. They lengthen every snapshot's list of active transactions and
    /// hold back the purge of old versions; at the end they roll back and the table is
    /// dropped, before the final state is read.
    pub idle: usize,
}

/// What a stress run has done so far, readable from another thread while it runs.
#[derive(Debug, Default)]
pub struct Counters {
    /// Transactions that committed.
    pub committed: AtomicU64,
    /// Transactions an error ended.
    pub aborted: AtomicU64,
    /// Statements run (including the ROLLBACKs sent after errors).
    pub statements: AtomicU64,
}

impl Counters {
    /// Committed transactions, aborted transactions and statements so far.
    fn read(&self) -> [u64; 3] {
        [&self.committed, &self.aborted, &self.statements].map(|c| c.load(Ordering::Relaxed))
    }
}

/// When a statement was invoked and when it completed, from the start of the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Interval {
    /// When its session sent it.
    pub invoked: Duration,
    /// When its answer arrived.
    pub completed: Duration,
}

/// A finished stress run.
#[derive(Debug, Clone)]
pub struct StressRun {
    /// The setup and every statement run, in invocation order, on sessions `t1`, `t2`, …
    /// (empty steps when the run was not recorded).
    pub case: TestCase,
    /// What each statement did: outcomes, the row versions read and written, the fates of the
    /// transactions, the final state.
    pub history: History,
    /// Per step of [`StressRun::case`], when it ran.
    pub intervals: Vec<Interval>,
    /// How long the run took, from the first transaction to the last answer.
    pub elapsed: Duration,
    /// Transactions committed.
    pub committed: u64,
    /// Transactions an error ended.
    pub aborted: u64,
    /// Statements run.
    pub statements: u64,
    /// Whether the run stopped early, at [`StressConfig::max_statements`].
    pub limited: bool,
}

/// One statement a session ran (every statement of a recorded run has one, held until the
/// run ends: kept small).
struct Record {
    step: usize,
    session: usize,
    sql: String,
    outcome: Outcome,
    /// The row versions it read and wrote; `None`: none (BEGIN, COMMIT, …).
    accesses: Option<Box<Accesses>>,
    interval: Interval,
}

/// `accesses` as a [`Record`] keeps them.
fn kept(accesses: Accesses) -> Option<Box<Accesses>> {
    (accesses != Accesses::default()).then(|| Box::new(accesses))
}

/// What one session did: its statements and, per transaction, its first step and fate.
#[derive(Default)]
struct SessionLog {
    records: Vec<Record>,
    txns: Vec<(usize, TxnStatus)>,
}

impl SessionLog {
    /// Puts what deferred writes showed and wrote, by version, into their records (the last
    /// few transactions', at the end of the log).
    fn settle(&mut self, settled: crate::instrumented::Settled) {
        for (version, outcome, accesses) in settled {
            let Version::Step(step) = version else {
                continue;
            };
            if let Some(record) = self.records.iter_mut().rev().find(|r| r.step == step) {
                record.outcome = outcome;
                record.accesses = kept(accesses);
            }
        }
    }
}

/// A session's running statement, watched for the statement timeout.
#[derive(Default)]
struct Watch {
    since: Mutex<Option<Instant>>,
    timed_out: AtomicBool,
    interrupt: OnceLock<Arc<dyn Interrupt>>,
}

impl Watch {
    /// Interrupts the running statement once it has run longer than `limit`.
    fn check(&self, limit: Duration) {
        let since = *self.since.lock().unwrap_or_else(|p| p.into_inner());
        if since.is_some_and(|t| t.elapsed() > limit)
            && !self.timed_out.swap(true, Ordering::SeqCst)
        {
            if let Some(interrupt) = self.interrupt.get() {
                interrupt.interrupt();
            }
        }
    }
}

/// An embedded engine's lock waits are waited out (as a busy timeout would) until the
/// statement timeout.
impl LockWaitHook for Watch {
    fn waiting(&self) -> bool {
        std::thread::sleep(Duration::from_micros(200));
        !self.timed_out.load(Ordering::SeqCst)
    }
}

/// What the sessions share.
struct Shared<'a> {
    source: &'a dyn TxnSource,
    recorder: Option<&'a Recorder>,
    /// The recorded statements' plans, by template, for every session.
    plans: PlanCache,
    counters: &'a Counters,
    stop: &'a AtomicBool,
    next: AtomicUsize,
    start: Instant,
    deadline: Instant,
    limit: Duration,
    /// The statement count of [`Counters::statements`] at which no transaction starts.
    last_statement: u64,
}

impl Executor {
    /// Runs `setup` on a fresh database of `target`, then the transactions of `source` on
    /// `config.sessions` concurrent sessions for `config.duration` (or until `stop` is set),
    /// counting into `counters` as it goes (counters that other runs counted into already
    /// go on from there: the run's own counts are what it adds).
    pub fn stress(
        &self,
        target: &dyn Target,
        setup: &[String],
        config: StressConfig,
        source: &dyn TxnSource,
        counters: &Counters,
        stop: &AtomicBool,
    ) -> Result<StressRun, TargetError> {
        target.check_sessions(config.sessions + config.idle)?;
        let profile = target.profile();
        let family = profile.family();
        let session_config = SessionConfig {
            isolation: config.isolation,
            mode: config.mode,
        };
        let db = target.create_database()?;
        let (init, init_writes, recorder) = {
            let mut conn = db.connect(session_config, None)?;
            if config.record {
                let (init, writes, recorder) =
                    Recorder::setup(conn.as_mut(), setup, family, config.isolation);
                (init, writes, Some(recorder))
            } else {
                let init: Vec<Outcome> = setup.iter().map(|s| conn.execute(s)).collect();
                (init, Vec::new(), None)
            }
        };
        if let Some((sql, e)) = setup
            .iter()
            .zip(&init)
            .find_map(|(s, o)| Some((s, o.error()?)))
        {
            return Err(TargetError::db(
                format!("setting up the workload (`{sql}`)"),
                e,
            ));
        }
        let held = idle::hold(db.as_ref(), session_config, config.idle, family)?;
        let start = Instant::now();
        let before = counters.read();
        let shared = Shared {
            source,
            recorder: recorder.as_ref(),
            plans: PlanCache::default(),
            counters,
            stop,
            next: AtomicUsize::new(0),
            start,
            deadline: start + config.duration,
            limit: self.statement_timeout,
            last_statement: before[2] + config.max_statements,
        };
        let watches: Vec<Arc<Watch>> = (0..config.sessions).map(|_| Arc::default()).collect();
        let hooked = profile.reports_lock_waits();
        let logs = std::thread::scope(|scope| {
            let handles: Vec<_> = (watches.iter().enumerate())
                .map(|(s, watch)| {
                    let (shared, db) = (&shared, &db);
                    scope.spawn(move || {
                        let hook = hooked.then(|| Arc::clone(watch) as Arc<dyn LockWaitHook>);
                        let mut conn = db.connect(session_config, hook)?;
                        conn.schema_fixed();
                        Ok::<_, TargetError>(session(shared, s, conn, watch))
                    })
                })
                .collect();
            while handles.iter().any(|h| !h.is_finished()) {
                std::thread::sleep(Duration::from_millis(20));
                watches.iter().for_each(|w| w.check(shared.limit));
            }
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                .collect::<Result<Vec<SessionLog>, TargetError>>()
        })?;
        let elapsed = start.elapsed();
        let after = counters.read();
        let [committed, aborted, statements] = [0, 1, 2].map(|i| after[i] - before[i]);
        idle::release(held)?;
        let final_state = db.final_state();
        drop(db);
        let (case, mut history, intervals) = assemble(setup, logs);
        history.target = target.name();
        history.isolation = config.isolation;
        history.init = init;
        history.init_writes = init_writes;
        if let Some(r) = &recorder {
            history.tables = r.tables.clone();
        }
        match final_state {
            Ok(state) => history.final_state = Some(state),
            Err(e) => history.final_state_error = Some(e.to_string()),
        }
        Ok(StressRun {
            case,
            history,
            intervals,
            elapsed,
            committed,
            aborted,
            statements,
            limited: statements >= config.max_statements,
        })
    }
}

/// Session `s`'s loop: transaction after transaction until the deadline or `stop`.
fn session(shared: &Shared, s: usize, mut conn: Box<dyn Connection>, watch: &Watch) -> SessionLog {
    let _ = watch.interrupt.set(conn.interrupter());
    let mut log = SessionLog::default();
    let mut deferred = Deferred::default();
    let mut n = 0;
    while !shared.stop.load(Ordering::Relaxed)
        && Instant::now() < shared.deadline
        && shared.counters.statements.load(Ordering::Relaxed) < shared.last_statement
    {
        let statements = shared.source.txn(s, n);
        n += 1;
        let mut status = TxnStatus::Committed;
        let mut first = None;
        let mut hung = false;
        for sql in statements {
            let session = (s, &mut deferred);
            let (step, ended) = run(shared, session, conn.as_mut(), watch, sql, &mut log);
            first.get_or_insert(step);
            if ended == Ended::Succeeded {
                continue;
            }
            hung = ended == Ended::Hung;
            // The transaction is over for the application: it rolls back whatever is left. The
            // ROLLBACK is sent even where the DBMS ended the transaction itself (it may then
            // fail, harmlessly): it is what closes the transaction in the recorded case.
            if !hung {
                let session = (s, &mut deferred);
                let rollback = "ROLLBACK".to_string();
                run(shared, session, conn.as_mut(), watch, rollback, &mut log);
            }
            status = TxnStatus::Aborted {
                step,
                rollback_sent: !hung,
            };
            break;
        }
        let counter = match status {
            TxnStatus::Committed => &shared.counters.committed,
            _ => &shared.counters.aborted,
        };
        counter.fetch_add(1, Ordering::Relaxed);
        if let Some(recorder) = shared.recorder {
            log.txns.extend(first.map(|f| (f, status)));
            log.settle(recorder.settle(conn.as_mut(), &mut deferred, false));
        }
        if hung {
            break;
        }
    }
    if let Some(recorder) = shared.recorder {
        log.settle(recorder.settle(conn.as_mut(), &mut deferred, true));
    }
    log
}

/// How a statement ended, for its session's loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ended {
    Succeeded,
    Failed,
    Hung,
}

/// Runs one statement of session `s` (its trigger-logged rows `deferred` where they can be)
/// and records it (when the run is recorded; the record keeps `sql` and the outcome): its step
/// and how it ended.
fn run(
    shared: &Shared,
    (s, deferred): (usize, &mut Deferred),
    conn: &mut dyn Connection,
    watch: &Watch,
    sql: String,
    log: &mut SessionLog,
) -> (usize, Ended) {
    let step = shared.next.fetch_add(1, Ordering::Relaxed);
    let invoked = Instant::now();
    *watch.since.lock().unwrap_or_else(|p| p.into_inner()) = Some(invoked);
    let (mut outcome, accesses, completed) = match shared.recorder {
        Some(recorder) => {
            let (outcome, accesses, ended) =
                recorder.run(&shared.plans, conn, &sql, Version::Step(step), deferred);
            (outcome, kept(accesses), ended)
        }
        None => (conn.execute(&sql), None, Instant::now()),
    };
    *watch.since.lock().unwrap_or_else(|p| p.into_inner()) = None;
    if watch.timed_out.swap(false, Ordering::SeqCst) && !outcome.succeeded() {
        outcome = Outcome::Hang {
            after_ms: shared.limit.as_millis() as u64,
            lock_cycle: false,
        };
    }
    shared.counters.statements.fetch_add(1, Ordering::Relaxed);
    let ended = match &outcome {
        o if o.succeeded() => Ended::Succeeded,
        Outcome::Hang { .. } => Ended::Hung,
        _ => Ended::Failed,
    };
    if shared.recorder.is_some() {
        log.records.push(Record {
            step,
            session: s,
            sql,
            outcome,
            accesses,
            interval: Interval {
                invoked: invoked - shared.start,
                completed: completed - shared.start,
            },
        });
    }
    (step, ended)
}

/// The case, history (outcomes, accesses, schedule, transactions) and intervals of the
/// sessions' `logs`.
fn assemble(setup: &[String], logs: Vec<SessionLog>) -> (TestCase, History, Vec<Interval>) {
    let mut status: std::collections::HashMap<usize, TxnStatus> = Default::default();
    let mut records: Vec<Record> = Vec::new();
    for log in logs {
        status.extend(log.txns);
        records.extend(log.records);
    }
    records.sort_by_key(|r| r.step);
    let mut by_completion: Vec<usize> = (0..records.len()).collect();
    by_completion.sort_by_key(|&i| (records[i].interval.completed, i));
    let mut completed = vec![0; records.len()];
    for (rank, &i) in by_completion.iter().enumerate() {
        completed[i] = rank;
    }
    let case = TestCase {
        init: setup.iter().map(Stmt::new).collect(),
        steps: (records.iter())
            .map(|r| Step {
                session: format!("t{}", r.session + 1),
                stmt: Stmt::new(r.sql.as_str()),
            })
            .collect(),
        ..TestCase::default()
    };
    let txns = (case.txns().iter())
        .map(|t| TxnRecord {
            label: t.label.clone(),
            status: status
                .get(&t.steps[0])
                .cloned()
                .unwrap_or(TxnStatus::Unfinished),
        })
        .collect();
    let intervals = records.iter().map(|r| r.interval).collect();
    let history = History {
        target: String::new(),
        isolation: Isolation::Serializable,
        init: Vec::new(),
        init_writes: Vec::new(),
        schedule: (by_completion.iter())
            .map(|&step| Event::Completed { step })
            .collect(),
        steps: (records.into_iter().enumerate())
            .map(|(i, r)| StepRecord {
                submitted: Some(i),
                completed: Some(completed[i]),
                blocked: false,
                outcome: r.outcome,
                resumed_together: None,
                accesses: Some(r.accesses.map_or_else(Accesses::default, |a| *a)),
            })
            .collect(),
        txns,
        final_state: None,
        final_state_error: None,
        tables: Vec::new(),
    };
    (case, history, intervals)
}
