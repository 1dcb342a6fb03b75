//! The execution protocol: DT² Algorithm 1 and WriteCheck Algorithm 1, with exact block
//! detection.
//!
//! Statements are submitted one at a time in the submitted order, each on its session's thread.
//! A statement that waits on a lock is a block point: its transaction is skipped until the
//! statement resumes. After every step, blocked statements are checked (in the order they
//! blocked); those that ended are appended to the actual schedule in the order they ended
//! (failures first: an aborted statement releases its locks before the waiter it unblocked can
//! succeed), and the scan restarts from the top. Deviations from the papers, each chosen for exactness:
//!
//! * after a block point txhunt waits for the DBMS's deadlock check of that wait (PostgreSQL's
//!   `deadlock_timeout`, whose check the waiting session is told of; none for InnoDB and
//!   SQLite, which check when the wait begins), so the victim of a deadlock is always the
//!   transaction whose statement closed the cycle (see [`AfterBlock`]); a statement whose
//!   check was reported waited, even when it ended before the probe saw it wait;
//! * resumption is checked after *every* step, blocked ones too, because a new waiter can make
//!   the DBMS pick an older waiter as deadlock victim; where the DBMS holds locks to the
//!   transaction's end at the case's level ([`Profile::holds_locks_to_txn_end`]), the
//!   lock-wait probe is asked about a waiting statement only after a step that may have
//!   released locks ([`Protocol::may_release`]); otherwise only its end is looked for;
//! * as in DT² (and unlike WriteCheck, which skips them), statements of an aborted transaction
//!   are still submitted and their outcomes recorded: on most DBMSs they then run in
//!   autocommit mode, which is what an application would see;
//! * when a transaction is aborted by an error, the target's profile says whether the DBMS
//!   already ended it or txhunt must send ROLLBACK (paper 001 §5.3.2); a driver that can tell
//!   whether a transaction is still open overrides the profile's guess; a failed COMMIT always
//!   ends the transaction;
//! * a statement that neither ends nor waits on a lock within the statement timeout is a
//!   `hang`: it is interrupted and its session torn down (later statements: `not run`);
//! * when nothing is left to submit and statements are still blocked: if an idle session keeps
//!   a transaction open, nothing will release them (`never completed`, cancelled at once);
//!   otherwise they wait on each other and the DBMS gets the statement timeout to break the
//!   deadlock; if it does not, they are a `hang`.

use crate::after_block::AfterBlock;
use crate::block::BlockDetector;
use crate::phase;
use crate::session::{Done, Pending, Session};
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::{Duration, Instant};
use txhunt_db::{ErrorEffect, Profile};
use txhunt_model::Isolation;
use txhunt_model::{Event, Outcome, StepRecord, StmtKind, TestCase, Txn, TxnRecord, TxnStatus};

/// The protocol's state for one execution.
pub(crate) struct Protocol<'a> {
    case: &'a TestCase,
    txns: Vec<Txn>,
    txn_of: Vec<usize>,
    session_of: Vec<usize>,
    labels: Vec<&'a str>,
    sessions: Vec<Option<Session>>,
    detector: &'a dyn BlockDetector,
    profile: &'a dyn Profile,
    limit: Duration,
    after_block: AfterBlock,
    records: Vec<StepRecord>,
    handled: Vec<bool>,
    schedule: Vec<Event>,
    submitted: usize,
    completed: usize,
    /// Groups of statements that resumed together so far.
    groups: usize,
    /// Blocked sessions and their waiting step, in the order they blocked.
    blocked: Vec<(usize, usize)>,
    /// Per transaction: the step whose error aborted it, and whether txhunt sent ROLLBACK.
    aborted: Vec<Option<(usize, bool)>>,
    /// Whether every lock a step takes ends with its transaction ([`locks_end_with_txns`]).
    txn_locks_only: bool,
    /// Per session: whether it may hold locks (a transaction open, or its state unknown).
    may_hold_locks: Vec<bool>,
    /// Whether every lock a step takes is held until its transaction ends, even at this
    /// level ([`Profile::holds_locks_to_txn_end`] and [`locks_end_with_txns`]).
    locks_held_to_end: bool,
    /// How many completed statements may have released locks ([`Protocol::may_release`]).
    releases: u64,
    /// Per step: the value of `releases` when its lock wait was last confirmed.
    confirmed_at: Vec<u64>,
}

/// What [`Protocol::run`] yields.
pub(crate) struct Observed {
    pub steps: Vec<StepRecord>,
    pub schedule: Vec<Event>,
    pub txns: Vec<TxnRecord>,
}

impl<'a> Protocol<'a> {
    /// Prepares the protocol; `connect` opens a session (one per label of the case).
    pub(crate) fn new(
        case: &'a TestCase,
        detector: &'a dyn BlockDetector,
        (profile, level): (&'a dyn Profile, Isolation),
        limit: Duration,
        after_block: AfterBlock,
        mut connect: impl FnMut(Arc<AtomicU64>) -> Result<Session, txhunt_db::TargetError>,
    ) -> Result<Self, txhunt_db::TargetError> {
        let labels = case.sessions();
        let completions = Arc::new(AtomicU64::new(0));
        let sessions = phase::time(phase::CONNECT, || {
            (labels.iter())
                .map(|_| connect(Arc::clone(&completions)).map(Some))
                .collect::<Result<Vec<_>, _>>()
        })?;
        let session_of = case
            .steps
            .iter()
            .map(|s| labels.iter().position(|l| *l == s.session).unwrap_or(0))
            .collect();
        let txns = case.txns();
        let txn_of = case.txn_of_steps(&txns);
        let n = case.steps.len();
        let txn_locks_only = locks_end_with_txns(case);
        Ok(Protocol {
            case,
            aborted: vec![None; txns.len()],
            txn_locks_only,
            locks_held_to_end: txn_locks_only && profile.holds_locks_to_txn_end(level),
            releases: 0,
            confirmed_at: vec![0; n],
            may_hold_locks: vec![false; labels.len()],
            txns,
            txn_of,
            session_of,
            labels,
            sessions,
            detector,
            profile,
            limit,
            after_block,
            records: vec![
                StepRecord {
                    submitted: None,
                    completed: None,
                    blocked: false,
                    outcome: Outcome::NotRun {
                        reason: "not submitted".into(),
                    },
                    resumed_together: None,
                    accesses: None,
                };
                n
            ],
            handled: vec![false; n],
            schedule: Vec::new(),
            submitted: 0,
            completed: 0,
            groups: 0,
            blocked: Vec::new(),
        })
    }

    /// Runs every step and returns what happened; the sessions are closed on return.
    pub(crate) fn run(mut self) -> Observed {
        loop {
            self.scan();
            // Nothing can be submitted. If every blocked statement waits on another blocked one,
            // only the DBMS can break the cycle (deadlock detection): give it the statement
            // timeout. If an idle session keeps a transaction open, nothing will release them.
            if self.blocked.is_empty() || self.idle_holder_exists() || !self.await_resolution() {
                break;
            }
        }
        self.give_up_on_blocked();
        phase::time(phase::TEARDOWN, || {
            self.sessions
                .iter_mut()
                .flatten()
                .for_each(Session::hang_up);
            self.sessions.clear();
        });
        let txns = self.fates();
        Observed {
            steps: self.records,
            schedule: self.schedule,
            txns,
        }
    }

    /// Algorithm 1's scan: submits every submittable step in order, restarting from the top
    /// whenever a blocked statement resumed.
    fn scan(&mut self) {
        let n = self.case.steps.len();
        let mut i = 0;
        while i < n {
            let s = self.session_of[i];
            if self.handled[i] || self.is_blocked(s) {
                i += 1;
                continue;
            }
            self.handled[i] = true;
            if self.case.header.skip_after_abort && self.aborted[self.txn_of[i]].is_some() {
                self.records[i].outcome = Outcome::NotRun {
                    reason: "its transaction was aborted".into(),
                };
                i += 1;
                continue;
            }
            if self.sessions[s].is_none() {
                self.records[i].outcome = Outcome::NotRun {
                    reason: format!("session {} was torn down after a hang", self.labels[s]),
                };
                i += 1;
                continue;
            }
            self.submit(i);
            i = if self.resume_blocked() { 0 } else { i + 1 };
        }
    }

    /// Whether a session that is not blocked, and has nothing left to run, still has an
    /// explicit transaction open (and so may hold the locks the blocked statements wait for).
    fn idle_holder_exists(&self) -> bool {
        self.txns.iter().any(|t| {
            let s = self.session_of[t.steps[0]];
            let last = t.steps[t.steps.len() - 1];
            t.explicit
                && self.aborted[t.id].is_none()
                && self.sessions[s].is_some()
                && !self.is_blocked(s)
                && self.handled[last]
                && !self.case.steps[last].stmt.kind().ends_txn()
        })
    }

    /// Rechecks the blocked statements until one resumes (true) or the statement timeout passes.
    fn await_resolution(&mut self) -> bool {
        let deadline = Instant::now() + self.limit;
        while Instant::now() < deadline {
            if self.resume_blocked() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        false
    }

    fn is_blocked(&self, session: usize) -> bool {
        self.blocked.iter().any(|(s, _)| *s == session)
    }

    fn submit(&mut self, i: usize) {
        let s = self.session_of[i];
        let Some(session) = &self.sessions[s] else {
            return;
        };
        let baseline = session.submit(&self.case.steps[i].stmt.sql);
        self.records[i].submitted = Some(self.submitted);
        self.submitted += 1;
        let pending = if self.nothing_can_block(s) {
            self.detector
                .after_submit_alone(session, baseline, self.limit)
        } else {
            self.detector.after_submit(session, baseline, self.limit)
        };
        match pending {
            Pending::Done(done) => {
                if done.waited {
                    // The DBMS's deadlock check ran for it: it waited on a lock and ended
                    // (a deadlock victim, most often) before the probe saw it wait.
                    self.records[i].blocked = true;
                    self.schedule.push(Event::Blocked { step: i });
                }
                self.complete(i, done)
            }
            Pending::Waiting => {
                self.records[i].blocked = true;
                self.confirmed_at[i] = self.releases;
                self.blocked.push((s, i));
                self.schedule.push(Event::Blocked { step: i });
                phase::time(phase::PAUSE, || self.after_block.wait(session));
            }
            Pending::Running => self.hang(i),
        }
    }

    /// Whether nothing can make session `s`'s next statement wait: no other session may hold
    /// a lock (none has a transaction open or a statement pending, none was torn down), and
    /// every lock the case's steps take ends with its transaction.
    fn nothing_can_block(&self, s: usize) -> bool {
        self.txn_locks_only
            && self.blocked.is_empty()
            && (self.may_hold_locks.iter().enumerate()).all(|(other, holds)| other == s || !holds)
    }

    /// Whether step `i`'s session may hold locks now that the step completed, the driver
    /// having said whether a transaction is open (`in_txn`) when it can tell.
    fn may_hold_locks_after(&self, i: usize, in_txn: Option<bool>) -> bool {
        let t = self.txn_of[i];
        if self.sessions[self.session_of[i]].is_none() {
            // Torn down after a hang: its server session may live on.
            return true;
        }
        match (self.aborted[t], in_txn) {
            (Some((step, true)), _) if step == i => false,
            (_, Some(open)) => open,
            (Some(_), None) => false,
            (None, None) => self.txns[t].explicit && !self.case.steps[i].stmt.kind().ends_txn(),
        }
    }

    /// Checks every blocked statement until none more resumes; true if any did.
    fn resume_blocked(&mut self) -> bool {
        let mut any = false;
        loop {
            let (ended, hung) = self.collect_ended();
            if ended.is_empty() && hung.is_empty() {
                return any;
            }
            any = true;
            let gone: Vec<usize> = ended
                .iter()
                .map(|(i, _)| *i)
                .chain(hung.iter().copied())
                .collect();
            self.blocked.retain(|(_, i)| !gone.contains(i));
            // Statements that ended at once resumed together, except that the failures
            // (first) released their locks before the waiters they unblocked could succeed:
            // those two kinds are ordered, and a failure seen a moment before its waiter
            // ended is the same schedule.
            for succeeded in [false, true] {
                let together: Vec<usize> = (ended.iter())
                    .filter(|(_, done)| done.outcome.succeeded() == succeeded)
                    .map(|(i, _)| *i)
                    .collect();
                if together.len() > 1 {
                    for &i in &together {
                        self.records[i].resumed_together = Some(self.groups);
                    }
                    self.groups += 1;
                }
            }
            for (i, done) in ended {
                self.complete(i, done);
            }
            for i in hung {
                self.hang(i);
            }
        }
    }

    /// The blocked statements that ended (in recording order) and those that now run past the
    /// timeout. Once one ended, the others are asked again until no more did: a statement judged
    /// waiting a moment before another ended may have ended first.
    fn collect_ended(&mut self) -> (Vec<(usize, Done)>, Vec<usize>) {
        let mut ended: Vec<(usize, Done)> = Vec::new();
        let mut hung: Vec<usize> = Vec::new();
        loop {
            let mut more = false;
            for &(s, i) in &self.blocked {
                if ended.iter().any(|(e, _)| *e == i) || hung.contains(&i) {
                    continue;
                }
                let Some(session) = &self.sessions[s] else {
                    continue;
                };
                // Nothing released a lock since its wait was confirmed (and none of the
                // others ended meanwhile): it still waits unless it ended (a deadlock
                // victim, a lock-wait timeout), which needs no question.
                let unchanged = self.locks_held_to_end
                    && self.confirmed_at[i] == self.releases
                    && ended.is_empty()
                    && hung.is_empty();
                let pending = match unchanged {
                    true => match session.settle(0, Duration::ZERO, false) {
                        Pending::Done(done) => Pending::Done(done),
                        _ => Pending::Waiting,
                    },
                    false => self.detector.recheck(session, self.limit),
                };
                match pending {
                    Pending::Done(done) => ended.push((i, done)),
                    Pending::Waiting => {
                        self.confirmed_at[i] = self.releases;
                        continue;
                    }
                    Pending::Running => hung.push(i),
                }
                more = true;
            }
            if !more {
                break;
            }
        }
        // Results can arrive out of order (one thread per session). A failed statement
        // (deadlock victim, serialization failure) releases its locks before a waiter it
        // unblocked can succeed, so failures go first, then arrival order.
        ended.sort_by_key(|(_, done)| (done.outcome.succeeded(), done.seq));
        (ended, hung)
    }

    fn complete(&mut self, i: usize, done: Done) {
        if self.may_release(i, &done) {
            self.releases += 1;
        }
        self.records[i].completed = Some(self.completed);
        self.completed += 1;
        self.schedule.push(Event::Completed { step: i });
        self.handle_abort(i, &done);
        self.may_hold_locks[self.session_of[i]] = self.may_hold_locks_after(i, done.in_txn);
        self.records[i].outcome = done.outcome;
    }

    /// Whether step `i`, which ended as `done` says, may have released locks a waiting
    /// statement needs: anything but a read or an update or delete of an open explicit
    /// transaction that succeeded, where locks are held to the transaction's end (an INSERT
    /// may release InnoDB's statement-long AUTO-INC lock).
    fn may_release(&self, i: usize, done: &Done) -> bool {
        let kind = self.case.steps[i].stmt.kind();
        let t = self.txn_of[i];
        !self.locks_held_to_end
            || !done.outcome.succeeded()
            || !matches!(kind, StmtKind::Select | StmtKind::Update | StmtKind::Delete)
            || !self.txns[t].explicit
            || self.aborted[t].is_some()
    }

    /// Paper 001 §5.3.2: decides whether an error aborted its explicit transaction, and sends
    /// the ROLLBACK the DBMS needs.
    fn handle_abort(&mut self, i: usize, done: &Done) {
        let Some(error) = done.outcome.error() else {
            return;
        };
        let t = self.txn_of[i];
        if !self.txns[t].explicit || self.aborted[t].is_some() {
            return;
        }
        let is_commit = self.case.steps[i].stmt.kind() == StmtKind::Commit;
        let effect = self.profile.error_effect(error);
        if done.in_txn == Some(false) {
            // The driver says no transaction is open any more: the DBMS ended it.
            self.aborted[t] = Some((i, false));
        } else if effect == ErrorEffect::NeedsRollback || is_commit {
            self.aborted[t] = Some((i, true));
            self.send_rollback(t, self.session_of[i]);
        } else if effect == ErrorEffect::RolledBack {
            self.aborted[t] = Some((i, false));
        }
    }

    fn send_rollback(&mut self, txn: usize, s: usize) {
        let Some(session) = &self.sessions[s] else {
            return;
        };
        let baseline = session.submit("ROLLBACK");
        let outcome = match session.settle(baseline, self.limit, false) {
            Pending::Done(done) => done.outcome,
            _ => Outcome::Hang {
                after_ms: self.limit.as_millis() as u64,
                lock_cycle: false,
            },
        };
        let hung = matches!(outcome, Outcome::Hang { .. });
        self.releases += 1;
        self.schedule.push(Event::Rollback { txn, outcome });
        if hung {
            self.sessions[s] = None;
        }
    }

    /// The statement neither ended nor waited in time: record a hang and tear its session down.
    fn hang(&mut self, i: usize) {
        let s = self.session_of[i];
        self.releases += 1;
        self.records[i].outcome = Outcome::Hang {
            after_ms: self.limit.as_millis() as u64,
            lock_cycle: false,
        };
        self.records[i].completed = Some(self.completed);
        self.completed += 1;
        self.schedule.push(Event::Completed { step: i });
        self.sessions[s] = None;
        self.may_hold_locks[s] = true;
    }

    /// Cancels the statements still blocked at the end: `never completed` when an idle
    /// transaction holds their locks, `hang` when they waited on each other and the DBMS did not
    /// break the cycle within the statement timeout.
    fn give_up_on_blocked(&mut self) {
        let outcome = if self.idle_holder_exists() {
            Outcome::NeverCompleted
        } else {
            Outcome::Hang {
                after_ms: self.limit.as_millis() as u64,
                lock_cycle: true,
            }
        };
        for (s, i) in std::mem::take(&mut self.blocked) {
            if let Some(session) = &self.sessions[s] {
                session.cancel_waits();
                session.interrupt();
                let _ = session.settle(0, self.limit, false);
            }
            self.records[i].outcome = outcome.clone();
            let line = self.case.steps[i].stmt.line;
            for later in (i + 1)..self.case.steps.len() {
                if self.session_of[later] == s && !self.handled[later] {
                    self.records[later].outcome = Outcome::NotRun {
                        reason: match line {
                            Some(l) => format!("its session was still blocked at line {l}"),
                            None => "its session was still blocked".into(),
                        },
                    };
                }
            }
        }
    }

    /// Every transaction's fate.
    fn fates(&self) -> Vec<TxnRecord> {
        self.txns
            .iter()
            .map(|t| TxnRecord {
                label: t.label.clone(),
                status: self.fate(t),
            })
            .collect()
    }

    fn fate(&self, t: &Txn) -> TxnStatus {
        if let Some((step, rollback_sent)) = self.aborted[t.id] {
            return TxnStatus::Aborted {
                step,
                rollback_sent,
            };
        }
        let Some(&last) = t.steps.last() else {
            return TxnStatus::Unfinished;
        };
        let outcome = &self.records[last].outcome;
        if !t.explicit {
            return match outcome {
                o if o.succeeded() => TxnStatus::Committed,
                Outcome::Error(_) => TxnStatus::Aborted {
                    step: last,
                    rollback_sent: false,
                },
                _ => TxnStatus::Unfinished,
            };
        }
        match self.case.steps[last].stmt.kind() {
            StmtKind::Commit if outcome.succeeded() => TxnStatus::Committed,
            StmtKind::Rollback if outcome.succeeded() => TxnStatus::RolledBack,
            _ => TxnStatus::Unfinished,
        }
    }
}

/// Whether every lock `case`'s steps can take ends with its transaction: the steps are
/// transaction control, reads and writes, and none calls a lock function (`GET_LOCK(…)`,
/// `pg_advisory_lock(…)`: a session's lock). Other statements (DDL, `LOCK TABLES`, `SET
/// autocommit`, XA, …) may keep locks past a transaction, or open one unseen.
fn locks_end_with_txns(case: &TestCase) -> bool {
    case.steps.iter().all(|step| {
        let sql = step.stmt.sql.to_ascii_lowercase();
        let calls_lock = sql
            .match_indices("lock")
            .any(|(at, word)| sql[at + word.len()..].trim_start().starts_with('('));
        step.stmt.kind() != StmtKind::Other && !calls_lock && !sql.contains("advisory")
    })
}
