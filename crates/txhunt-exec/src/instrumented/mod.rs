//! Instrumented execution: a case run with every statement rewritten by
//! [`txhunt_sql::instrument`], and its history decoded back into what the case's own
//! statements showed (hidden columns removed, a write's reported rows turned back into its row
//! count) plus the row versions each statement read and wrote.

mod connection;
mod decode;
mod trigger_log;
mod version_sets;

use crate::{phase, Executor};
use connection::Instrumented;
use decode::decode;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use txhunt_db::{Connection, Target, TargetError};
use txhunt_model::access::{TableMeta, Version, WriteKind};
use txhunt_model::{History, Isolation, Outcome, SqlFamily, Stmt, StmtKind, TestCase};
use txhunt_sql::instrument::{follow_column_changes, log_trigger_event, plan, Plan};
use version_sets::Results;

/// The plans of a case's setup statements and steps, and the tables it creates.
struct Plans {
    init: Vec<Plan>,
    steps: Vec<Plan>,
    tables: Vec<TableMeta>,
}

impl Plans {
    /// The plans of `case`'s statements; `extra_reads` as for [`plan`].
    fn of(case: &TestCase, family: SqlFamily, extra_reads: bool) -> Plans {
        let mut tables = Vec::new();
        // Tables whose columns an ALTER TABLE changed, where logging triggers report writes.
        let mut altered = HashSet::new();
        let mut next = |sql: &str, version: Version| {
            let p = match plan(sql, family, version, &tables, extra_reads) {
                Plan::CreateTable { then, .. }
                    if !then.is_empty() && matches!(version, Version::Step(_)) =>
                {
                    Plan::Untracked(
                        "a table created by a step: its logging triggers would be DDL inside the case's transactions".into(),
                    )
                }
                Plan::Write {
                    kind: WriteKind::Update,
                    table,
                    ..
                } if altered.contains(&table) => Plan::Untracked(format!(
                    "an ALTER TABLE changed the columns of {table}: its logging triggers would count a row whose only change is to a new column as unchanged"
                )),
                p => p,
            };
            match &p {
                Plan::CreateTable { table, .. } => tables.push(table.clone()),
                Plan::Untracked(_) => {
                    let changed = follow_column_changes(sql, family, &mut tables);
                    altered.extend(changed.filter(|_| family == SqlFamily::Mysql));
                }
                _ => {}
            }
            p
        };
        let init: Vec<Plan> = (case.init.iter().enumerate())
            .map(|(i, s)| next(&s.sql, Version::Init(i)))
            .collect();
        let steps: Vec<Plan> = (case.steps.iter().enumerate())
            .map(|(i, s)| next(&s.stmt.sql, Version::Step(i)))
            .collect();
        Plans {
            init,
            steps,
            tables,
        }
    }

    /// Leaves out the logging triggers no statement of `case` (whose plans these are) needs
    /// for its record ([`Plan::logged_events`]): creating one is about 1 ms of DDL on MariaDB,
    /// and a case seldom updates and deletes in every table. Not for a case that mentions
    /// triggers (its own triggers' writes may need ours).
    fn only_needed_triggers(&mut self, case: &TestCase) {
        let sql = (case.init.iter()).chain(case.steps.iter().map(|s| &s.stmt));
        if sql
            .map(|s| s.sql.to_ascii_lowercase())
            .any(|s| s.contains("trigger"))
        {
            return;
        }
        let needed: HashSet<(String, WriteKind)> = (self.init.iter())
            .chain(&self.steps)
            .flat_map(|p| p.logged_events())
            .map(|(table, kind)| (table.to_string(), kind))
            .collect();
        for p in &mut self.init {
            if let Plan::CreateTable { table, then, .. } = p {
                then.retain(|sql| {
                    log_trigger_event(sql)
                        .is_none_or(|kind| needed.contains(&(table.name.clone(), kind)))
                });
            }
        }
    }

    /// The version-set reads of each statement that has some, by its version.
    fn version_sets(&self) -> HashMap<i64, Vec<String>> {
        let versions = (0..self.init.len())
            .map(Version::Init)
            .chain((0..self.steps.len()).map(Version::Step));
        self.init
            .iter()
            .chain(&self.steps)
            .zip(versions)
            .filter_map(|(p, v)| {
                let sets = p.version_sets();
                (!sets.is_empty())
                    .then(|| (v.to_column(), sets.iter().map(|s| s.sql.clone()).collect()))
            })
            .collect()
    }
}

impl Executor {
    /// Executes `case` as [`Executor::execute`] does, instrumented: the history's outcomes
    /// are what the case's own statements returned, each step has its
    /// [`txhunt_model::StepRecord::accesses`], and [`History::tables`] lists the tables.
    pub fn execute_instrumented(
        &self,
        target: &dyn Target,
        case: &TestCase,
        isolation: Isolation,
    ) -> Result<History, TargetError> {
        let family = target.profile().family();
        let extra_reads = extra_reads(family, isolation);
        let plans = phase::time(phase::INSTRUMENT, || {
            let mut plans = Plans::of(case, family, extra_reads);
            plans.only_needed_triggers(case);
            plans
        });
        let mut rewritten = case.clone();
        let origin;
        (rewritten.init, origin) = rewritten_init(&case.init, &plans.init);
        for (step, p) in rewritten.steps.iter_mut().zip(&plans.steps) {
            step.stmt.sql = p.sql(&step.stmt.sql).to_string();
        }
        let sets = Arc::new(plans.version_sets());
        let results = Results::default();
        let trigger_log = family == SqlFamily::Mysql;
        let wrap = |conn: Box<dyn Connection>| {
            Instrumented::wrap(conn, trigger_log, Arc::clone(&sets), Arc::clone(&results))
        };
        let mut history = self.execute_wrapped(target, &rewritten, isolation, &wrap)?;
        let results = std::mem::take(
            &mut *results
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner()),
        );
        let read = |v: Version| results.get(&v.to_column()).map_or(&[][..], Vec::as_slice);
        (history.init, history.init_writes) = decode_init(&history.init, &origin, &plans.init);
        for (s, (record, p)) in history.steps.iter_mut().zip(&plans.steps).enumerate() {
            let (outcome, accesses) = decode(
                p,
                std::mem::replace(&mut record.outcome, Outcome::Ok),
                read(Version::Step(s)),
            );
            record.outcome = outcome;
            record.accesses = Some(accesses);
        }
        history.tables = plans.tables;
        Ok(history)
    }
}

/// Whether version-set reads may run ([`plan`]'s `extra_reads`): a plain read at SERIALIZABLE
/// locks (InnoDB) or is tracked by SSI (PostgreSQL).
fn extra_reads(family: SqlFamily, isolation: Isolation) -> bool {
    family == SqlFamily::Sqlite || isolation != Isolation::Serializable
}

/// The setup statements `init` as their `plans` run them: each rewritten, followed by the
/// statements its plan adds (triggers); and per statement of `init`, the index of the
/// rewritten one that stands for it.
fn rewritten_init(init: &[Stmt], plans: &[Plan]) -> (Vec<Stmt>, Vec<usize>) {
    let mut rewritten = Vec::new();
    let mut origin = Vec::new();
    for (stmt, p) in init.iter().zip(plans) {
        origin.push(rewritten.len());
        rewritten.push(Stmt {
            sql: p.sql(&stmt.sql).to_string(),
            ..stmt.clone()
        });
        if let Plan::CreateTable { then, .. } = p {
            rewritten.extend(then.iter().map(Stmt::new));
        }
    }
    (rewritten, origin)
}

/// What each setup statement showed and wrote, from the `outcomes` of the rewritten setup
/// ([`rewritten_init`]'s `origin`): its own outcome, or the first error of the statements its
/// plan added.
fn decode_init(
    outcomes: &[Outcome],
    origin: &[usize],
    plans: &[Plan],
) -> (Vec<Outcome>, Vec<Vec<txhunt_model::access::Write>>) {
    let ends = origin.iter().skip(1).copied().chain([outcomes.len()]);
    origin
        .iter()
        .zip(ends)
        .zip(plans)
        .map(|((&i, end), p)| {
            let added = outcomes[i + 1..end].iter().find(|o| o.error().is_some());
            match added {
                Some(error) => (error.clone(), Vec::new()),
                None => {
                    let (outcome, accesses) = decode(p, outcomes[i].clone(), &[]);
                    (outcome, accesses.writes)
                }
            }
        })
        .unzip()
}

/// What deferred writes showed and wrote, by version.
pub(crate) type Settled = Vec<(Version, Outcome, txhunt_model::access::Accesses)>;

/// A stress session's writes whose rows are still in the trigger log ([`Recorder::run`]),
/// and those taken from it, not yet handed over ([`Recorder::settle`]).
#[derive(Default)]
pub(crate) struct Deferred {
    pending: Vec<Pending>,
    settled: Settled,
    /// Transactions ended since the log was last taken.
    ended: usize,
}

/// How many transactions a stress session ends between two reads of its trigger log: the log
/// holds that many transactions' rows at most (a few hundred bytes), and the statement that
/// reads it runs once per that many.
const TAKE_EVERY: usize = 8;

/// A write whose rows are still in the trigger log.
struct Pending {
    version: Version,
    plan: Plan,
    /// What the server answered to it.
    answered: Outcome,
    /// Its version-set reads, run right after it.
    sets: Vec<Outcome>,
}

impl Deferred {
    /// Settles every pending write from the log's `taken` entries (or, where reading the log
    /// failed, as a write whose rows are unknown).
    fn settle_with(&mut self, taken: Result<Vec<trigger_log::Entry>, Outcome>) {
        let settled = self.pending.drain(..).map(|w| {
            let kind = match &w.plan {
                Plan::Write {
                    kind: WriteKind::Insert,
                    ..
                } => StmtKind::Insert,
                _ => StmtKind::Update,
            };
            match &taken {
                Ok(entries) => {
                    let rows = trigger_log::rows_of(entries, w.version.to_column(), kind);
                    let (outcome, accesses) = decode(&w.plan, rows, &w.sets);
                    (w.version, outcome, accesses)
                }
                Err(met) => {
                    let mut accesses = txhunt_model::access::Accesses::default();
                    (accesses.untracked).push(format!(
                        "its rows could not be read from the trigger log: {met}"
                    ));
                    (w.version, w.answered, accesses)
                }
            }
        });
        self.settled.extend(settled);
    }
}

/// Runs single statements instrumented, each planned as it comes (for executions whose
/// statements are not known in advance: stress runs): the tables the setup created, and how
/// the target's family reports writes.
pub(crate) struct Recorder {
    family: SqlFamily,
    extra_reads: bool,
    /// The tables the setup created.
    pub(crate) tables: Vec<TableMeta>,
}

impl Recorder {
    /// Runs the setup statements `init` instrumented on `conn`: what each showed and wrote,
    /// and the recorder of the statements that follow at `isolation`.
    pub(crate) fn setup(
        conn: &mut dyn Connection,
        init: &[String],
        family: SqlFamily,
        isolation: Isolation,
    ) -> (
        Vec<Outcome>,
        Vec<Vec<txhunt_model::access::Write>>,
        Recorder,
    ) {
        let extra_reads = extra_reads(family, isolation);
        let case = TestCase {
            init: init.iter().map(Stmt::new).collect(),
            ..TestCase::default()
        };
        let plans = Plans::of(&case, family, extra_reads);
        let (rewritten, origin) = rewritten_init(&case.init, &plans.init);
        let outcomes: Vec<Outcome> = (rewritten.iter())
            .map(|s| match family {
                SqlFamily::Mysql => trigger_log::run(conn, &s.sql),
                _ => conn.execute(&s.sql),
            })
            .collect();
        let (outcomes, writes) = decode_init(&outcomes, &origin, &plans.init);
        let recorder = Recorder {
            family,
            extra_reads,
            tables: plans.tables,
        };
        (outcomes, writes, recorder)
    }

    /// Runs `sql` on `conn` as the statement that writes `version`: what it showed, the row
    /// versions it read and wrote, and when the statement ended (with MySQL/MariaDB's trigger
    /// log, where that travels with it, and before its version-set reads).
    /// Plans come from the run's `cache`.
    ///
    /// A MySQL/MariaDB insert or update that succeeded is `deferred`: it runs alone, and its
    /// rows stay in the trigger log, read in the same round trip as the COMMIT or ROLLBACK
    /// that ends every [`TAKE_EVERY`]th transaction (or by [`Recorder::settle`]); until then
    /// it shows what the server answered and no accesses. A delete's log entries do not carry
    /// its version: it reads the log right after it, once the deferred rows are taken.
    pub(crate) fn run(
        &self,
        cache: &txhunt_sql::plan_cache::PlanCache,
        conn: &mut dyn Connection,
        sql: &str,
        version: Version,
        deferred: &mut Deferred,
    ) -> (Outcome, txhunt_model::access::Accesses, std::time::Instant) {
        let p = cache.plan(sql, self.family, version, &self.tables, self.extra_reads);
        let rewritten = p.sql(sql);
        let logged = self.family == SqlFamily::Mysql && trigger_log::marked(rewritten);
        let defer = logged
            && matches!(
                p,
                Plan::Write {
                    kind: WriteKind::Insert | WriteKind::Update,
                    ..
                }
            );
        let ends_txn = matches!(StmtKind::of(sql), StmtKind::Commit | StmtKind::Rollback);
        let outcome = if logged && !defer {
            if !deferred.pending.is_empty() {
                deferred.settle_with(trigger_log::take(conn));
            }
            trigger_log::run(conn, rewritten)
        } else if ends_txn && {
            deferred.ended += 1;
            deferred.ended >= TAKE_EVERY && !deferred.pending.is_empty()
        } {
            deferred.ended = 0;
            let (outcome, taken) = trigger_log::run_then_take(conn, rewritten);
            if taken.is_ok() {
                deferred.settle_with(taken);
            }
            outcome
        } else {
            conn.execute(rewritten)
        };
        let ended = std::time::Instant::now();
        let sets: Vec<Outcome> = if outcome.succeeded() {
            (p.version_sets().iter())
                .map(|set| conn.execute(&set.sql))
                .collect()
        } else {
            Vec::new()
        };
        if defer && outcome.succeeded() {
            deferred.pending.push(Pending {
                version,
                plan: p,
                answered: outcome.clone(),
                sets,
            });
            return (outcome, Default::default(), ended);
        }
        let (outcome, accesses) = decode(&p, outcome, &sets);
        (outcome, accesses, ended)
    }

    /// What the `deferred` writes taken from the log so far showed and wrote, by version; with
    /// `all`, reading the trigger log on `conn` for those not taken yet (the session's end).
    pub(crate) fn settle(
        &self,
        conn: &mut dyn Connection,
        deferred: &mut Deferred,
        all: bool,
    ) -> Settled {
        if all && !deferred.pending.is_empty() {
            deferred.settle_with(trigger_log::take(conn));
        }
        std::mem::take(&mut deferred.settled)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The logging triggers the setup of `text` creates, as `(table, event)`.
    fn triggers(text: &str) -> Vec<(String, WriteKind)> {
        let case = txhunt_model::scenario::parse(text, "case.sql").expect("parses");
        let mut plans = Plans::of(&case, SqlFamily::Mysql, true);
        plans.only_needed_triggers(&case);
        (plans.init.iter())
            .flat_map(|p| match p {
                Plan::CreateTable { table, then, .. } => (then.iter())
                    .filter_map(|sql| log_trigger_event(sql))
                    .map(|kind| (table.name.clone(), kind))
                    .collect(),
                _ => Vec::new(),
            })
            .collect()
    }

    const SETUP: &str = "/* init */ CREATE TABLE t (k INT PRIMARY KEY, v INT);
/* init */ CREATE TABLE u (k INT PRIMARY KEY, v INT);
/* init */ CREATE TABLE w (k INT PRIMARY KEY, v INT);
/* init */ INSERT INTO t VALUES (1, 1);
";

    #[test]
    fn only_the_triggers_the_cases_writes_fire_are_created() {
        let case = format!(
            "{SETUP}/* t1 */ UPDATE t SET v = 2;
/* t2 */ INSERT INTO u VALUES (1, 1) ON DUPLICATE KEY UPDATE v = 3;
/* t2 */ DELETE FROM w WHERE k = 1;
/* t1 */ SELECT * FROM w;
"
        );
        use WriteKind::*;
        assert_eq!(
            triggers(&case),
            [
                ("t".into(), Insert),
                ("t".into(), Update),
                ("u".into(), Insert),
                ("u".into(), Update),
                ("w".into(), Delete),
            ]
        );
    }

    #[test]
    fn a_case_with_triggers_of_its_own_keeps_every_logging_trigger() {
        let case = format!(
            "{SETUP}/* init */ CREATE TRIGGER tu AFTER UPDATE ON t FOR EACH ROW DELETE FROM w;
/* t1 */ UPDATE t SET v = 2;
"
        );
        assert_eq!(triggers(&case).len(), 9);
    }
}
