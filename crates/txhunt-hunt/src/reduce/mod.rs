//! Automatic test-case reduction: a finding's case cut down to what the finding needs.
//!
//! Delta debugging ([`ddmin`]) runs over, in this order, the case's whole transactions, its
//! statements (a transaction's BEGIN, COMMIT and ROLLBACK stay as long as the transaction
//! does; they go with it), the rows of its setup's INSERTs, its tables (each with its
//! indexes and rows), its other setup statements and the columns no statement names; then
//! each statement's expressions are simplified one at a time (a WHERE dropped, an AND by one
//! side, a BETWEEN by one comparison, … through `txhunt_sql::simplify`), and delta debugging
//! runs once more over its literal values (towards small, equal, NULL-free ones). The passes
//! run a second time when the first round made the case smaller. Last, tables, columns and
//! indexes are renamed `t`, `t2`, `k`, `v`, `i`, … when the finding survives it.
//!
//! A change is kept only when the smaller case still gives **the same finding**: the same
//! oracle and the same typed signature (e.g. `wss` `tx-wss:final-state`), as a bug candidate
//! (or permissible, when asked to keep those), in each of [`REPLAYS`] runs in a row —
//! txhunt's executor reproduces the schedule and its blocking exactly, so a real finding
//! replays. A run the infrastructure failed under counts as not reproducing. A case whose
//! finding does not replay every time to begin with is `flaky`: its replay counts are
//! reported and it is not reduced (it could be reduced into another bug). Expectations and
//! notes are dropped from the smaller cases (they described the original run). The search
//! stops at its time budget, or when asked to, with the smallest case found.
//!
//! A hang is reduced with tries at a shorter statement timeout ([`HANG_TRY_TIMEOUT`]), each
//! of which would otherwise wait out the full one, and the reduced case is confirmed at the
//! full timeout.

mod ddmin;
mod passes;
mod save;

pub use ddmin::ddmin;
pub use save::{reduced_path, write_beside, REDUCED_FROM_KEY};

use crate::judge::{Judge, Judged};
use passes::{data_steps, texts, with_texts, Pass};
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use txhunt_db::Target;
use txhunt_model::{History, Isolation, SqlFamily, TestCase};
use txhunt_oracle::{OracleId, Signature};
use txhunt_sql::simplify;

/// How many runs in a row must give the finding.
pub const REPLAYS: usize = 3;

/// The finding a reduction keeps.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Goal {
    /// The oracle that made it.
    pub oracle: OracleId,
    /// Its typed signature, as printed (e.g. `tx-wss:final-state`).
    pub signature: String,
    /// Whether a permissible finding counts too (by default only a bug candidate does).
    pub permissible: bool,
}

impl Goal {
    /// Whether the finding is the explicit oracle's hang (a statement that never ended).
    pub fn is_hang(&self) -> bool {
        self.oracle == OracleId::Explicit && self.signature == Signature::Hang.to_string()
    }

    /// Whether one judged execution of a case (its runs on every target) gives the finding.
    pub fn met_by(&self, runs: &[Judged]) -> bool {
        self.run_giving(runs).is_some()
    }

    /// The run (of one judged execution's runs on every target) that gives the finding.
    pub fn run_giving<'a>(&self, runs: &'a [Judged]) -> Option<&'a Judged> {
        runs.iter().filter(|r| !r.is_suspect()).find(|run| {
            (run.findings.iter().chain(&run.compared)).any(|f| {
                f.oracle == self.oracle
                    && f.signature.to_string() == self.signature
                    && (f.is_candidate() || self.permissible)
            })
        })
    }
}

/// One tried change.
#[derive(Debug, Clone, Serialize)]
pub struct Attempt {
    /// What was cut or simplified: `transactions`, `statements`, `rows`, `tables`, `setup`,
    /// `columns`, `expressions`, `literals` or `rename`.
    pub pass: &'static str,
    /// How many parts of that kind the tried case kept (for `literals`: kept as they were;
    /// for `expressions`: the simplified statement's length; for `rename`: statements).
    pub kept: usize,
    /// Of how many (for `expressions`: the statement's length before).
    pub of: usize,
    /// Whether the finding survived it.
    pub reproduced: bool,
    /// How long its runs took.
    pub millis: u64,
    /// The statement timeout its runs had (shorter than the judge's while a hang is reduced,
    /// see [`HANG_TRY_TIMEOUT`]).
    pub timeout_ms: u64,
}

/// A finding that did not replay every time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Flaky {
    /// Runs that gave the finding.
    pub reproduced: usize,
    /// Runs made.
    pub replays: usize,
}

/// What a reduction did.
#[derive(Debug, Clone, Serialize)]
pub struct Reduction {
    /// The smallest case found (the original when flaky).
    #[serde(skip)]
    pub case: TestCase,
    /// Statements (setup and steps) before and after.
    pub statements: (usize, usize),
    /// Transactions before and after.
    pub transactions: (usize, usize),
    /// Set when the original's finding did not replay every time: then nothing was reduced.
    pub flaky: Option<Flaky>,
    /// Whether the time budget ran out before the search ended.
    pub out_of_time: bool,
    /// Every change tried.
    pub log: Vec<Attempt>,
    /// Wall time.
    pub seconds: f64,
    /// A run of the reduced case that gives the finding (on the target that gave it): what a
    /// report or an exported test expects. `None` when the last replay did not give it (the
    /// case is then reported without observed outcomes) or nothing was reduced (flaky).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observed: Option<History>,
}

/// Why a case could not be reduced.
#[derive(Debug, thiserror::Error)]
pub enum ReduceError {
    /// The original case does not give the finding at all.
    #[error("the case does not give the finding {oracle} {signature} in {replays} runs")]
    NotReproduced {
        /// The finding's oracle.
        oracle: OracleId,
        /// Its signature.
        signature: String,
        /// Runs made.
        replays: usize,
    },
}

/// The statement timeout of the tries while reducing a hang (when the judge's own is longer):
/// a statement that has not ended after it hangs at the full timeout too (a hang at the full
/// timeout has not ended at this one either), and each try that keeps the hang waits this
/// long instead of the full timeout (10 s by default). Longer than PostgreSQL's default
/// `deadlock_timeout` (1 s), so a deadlock the DBMS detects is still told from a hang. The
/// reduced case is confirmed at the full timeout; when it does not hang there (a statement
/// that was only slow), the search runs again at the full timeout.
pub const HANG_TRY_TIMEOUT: Duration = Duration::from_secs(2);

/// Reduces `case`, run at `level` on `targets` and judged by `judge`, to a smaller case that
/// still gives `goal`, within `budget` (and until `stop` is set).
pub fn reduce(
    case: &TestCase,
    judge: &Judge,
    targets: &[&dyn Target],
    level: Isolation,
    goal: &Goal,
    budget: Duration,
    stop: &AtomicBool,
) -> Result<Reduction, ReduceError> {
    let started = Instant::now();
    let deadline = started + budget;
    let full = judge.executor.statement_timeout;
    let gives = |timeout: Duration, c: &TestCase| {
        judge
            .judge_within(c, targets, level, timeout)
            .is_ok_and(|runs| goal.met_by(&runs))
    };
    let shortened = goal.is_hang() && full > HANG_TRY_TIMEOUT;
    let try_timeout = if shortened { HANG_TRY_TIMEOUT } else { full };
    // The first replay at the full timeout: a hang there is one at the try timeout too.
    let reproduced = (0..REPLAYS)
        .filter(|&i| gives(if i == 0 { full } else { try_timeout }, case))
        .count();
    let before = size(case);
    let mut reduction = Reduction {
        case: case.clone(),
        statements: (before.0, before.0),
        transactions: (before.1, before.1),
        flaky: None,
        out_of_time: false,
        log: Vec::new(),
        seconds: 0.0,
        observed: None,
    };
    if reproduced == 0 {
        return Err(ReduceError::NotReproduced {
            oracle: goal.oracle,
            signature: goal.signature.clone(),
            replays: REPLAYS,
        });
    }
    if reproduced < REPLAYS {
        reduction.flaky = Some(Flaky {
            reproduced,
            replays: REPLAYS,
        });
        reduction.seconds = started.elapsed().as_secs_f64();
        return Ok(reduction);
    }
    let mut search = Search {
        family: targets
            .first()
            .map_or(SqlFamily::Sqlite, |t| t.profile().family()),
        gives: &gives,
        timeout: try_timeout,
        give_up: &|| Instant::now() >= deadline || stop.load(Ordering::SeqCst),
        log: Vec::new(),
    };
    // A run of the reduced case at the full timeout that gives the finding.
    let observe = |c: &TestCase| {
        (judge.judge(c, targets, level).ok())
            .and_then(|runs| goal.run_giving(&runs).map(|run| run.history.clone()))
    };
    let mut current = search.run(plain(case));
    let mut observed = observe(&current);
    if observed.is_none() && shortened {
        // Only slow at the short timeout: search again where a hang is one.
        search.timeout = full;
        current = search.run(plain(case));
        observed = observe(&current);
    }
    let after = size(&current);
    reduction.statements.1 = after.0;
    reduction.transactions.1 = after.1;
    reduction.out_of_time = (search.give_up)();
    reduction.log = search.log;
    reduction.observed = observed;
    reduction.case = current;
    reduction.seconds = started.elapsed().as_secs_f64();
    Ok(reduction)
}

/// How many times the passes run in all, at most: a second round when the first made the
/// case smaller (a statement gone may let a row, a column or a literal go, and back).
const ROUNDS: usize = 2;

/// Statements (setup and steps) and transactions of `case`.
fn size(case: &TestCase) -> (usize, usize) {
    (case.init.len() + case.steps.len(), case.txns().len())
}

/// How big `case` is, to tell whether a round made it smaller: its statements, then its text.
fn weight(case: &TestCase) -> (usize, usize) {
    (size(case).0, texts(case).iter().map(String::len).sum())
}

/// The state of one reduction's search.
struct Search<'a> {
    /// The targets' SQL family.
    family: SqlFamily,
    /// Whether one run of a case, at a statement timeout, gives the finding.
    gives: &'a dyn Fn(Duration, &TestCase) -> bool,
    /// The statement timeout of the tries.
    timeout: Duration,
    /// Whether the search must stop now.
    give_up: &'a dyn Fn() -> bool,
    /// Every change tried.
    log: Vec<Attempt>,
}

impl Search<'_> {
    /// `current` after every pass, in up to [`ROUNDS`] rounds, and the renaming.
    fn run(&mut self, mut current: TestCase) -> TestCase {
        for _ in 0..ROUNDS {
            let before_round = weight(&current);
            for pass in Pass::ALL {
                if pass == Pass::Literals {
                    current = self.expressions(current);
                }
                current = self.pass(pass, current);
            }
            if weight(&current) >= before_round || (self.give_up)() {
                break;
            }
        }
        self.rename(current)
    }

    /// Whether `variant` gives the finding in [`REPLAYS`] runs in a row; logged.
    fn holds(
        &mut self,
        pass: &'static str,
        (kept, of): (usize, usize),
        variant: &TestCase,
    ) -> bool {
        let tried = Instant::now();
        let holds = (0..REPLAYS).all(|_| (self.gives)(self.timeout, variant));
        self.log.push(Attempt {
            pass,
            kept,
            of,
            reproduced: holds,
            millis: tried.elapsed().as_millis() as u64,
            timeout_ms: self.timeout.as_millis() as u64,
        });
        holds
    }

    /// `current` after delta debugging over the parts of `pass`.
    fn pass(&mut self, pass: Pass, current: TestCase) -> TestCase {
        let family = self.family;
        let parts = pass.parts(&current, family);
        if parts == 0 {
            return current;
        }
        let give_up = self.give_up;
        let kept = ddmin(
            parts,
            &mut |keep: &[bool]| {
                let kept = keep.iter().filter(|k| **k).count();
                (pass.cut(&current, family, keep))
                    .is_some_and(|variant| self.holds(pass.name(), (kept, parts), &variant))
            },
            give_up,
        );
        pass.cut(&current, family, &kept).unwrap_or(current)
    }

    /// `current` with each data statement simplified one expression at a time, as long as a
    /// simpler one keeps the finding (each tried variant is shorter, so this ends).
    fn expressions(&mut self, mut current: TestCase) -> TestCase {
        for step in data_steps(&current) {
            'simpler: loop {
                let sql = current.steps[step].stmt.sql.clone();
                for variant in simplify::expression_variants(&sql, self.family) {
                    if (self.give_up)() {
                        return current;
                    }
                    if variant.len() >= sql.len() {
                        continue;
                    }
                    let mut tried = current.clone();
                    tried.steps[step].stmt.sql = variant;
                    let lengths = (tried.steps[step].stmt.sql.len(), sql.len());
                    if self.holds("expressions", lengths, &tried) {
                        current = tried;
                        continue 'simpler;
                    }
                }
                break;
            }
        }
        current
    }

    /// `current` with its tables, columns and indexes renamed `t`, `k`, `v`, `i`, … when the
    /// finding survives it.
    fn rename(&mut self, current: TestCase) -> TestCase {
        let texts = texts(&current);
        let Some(renamed) = simplify::rename(&texts, self.family) else {
            return current;
        };
        if (self.give_up)() {
            return current;
        }
        let mut tried = current.clone();
        with_texts(&mut tried, renamed);
        let lengths = (texts.len(), texts.len());
        if self.holds("rename", lengths, &tried) {
            tried
        } else {
            current
        }
    }
}

/// The median of how many times fewer statements each reduction left (`before / after` of
/// each pair), if there is any.
pub fn median_ratio(statements: &[(usize, usize)]) -> Option<f64> {
    let mut ratios: Vec<f64> = (statements.iter())
        .map(|&(before, after)| before as f64 / after.max(1) as f64)
        .collect();
    ratios.sort_by(f64::total_cmp);
    let n = ratios.len();
    match n {
        0 => None,
        n if n % 2 == 1 => Some(ratios[n / 2]),
        n => Some((ratios[n / 2 - 1] + ratios[n / 2]) / 2.0),
    }
}

/// `case` without the expectations and notes of its original run.
fn plain(case: &TestCase) -> TestCase {
    let mut case = case.clone();
    case.final_expect.clear();
    for stmt in case
        .init
        .iter_mut()
        .chain(case.steps.iter_mut().map(|s| &mut s.stmt))
    {
        stmt.expect = None;
        stmt.note = None;
    }
    case
}
