//! `txhunt bench dsg`: how checking a history for Adya's phenomena scales with its size. For
//! each size, a synthetic instrumented history (a [`TestCase`] and its [`History`], every step's
//! row versions recorded as instrumentation records them) is checked by the whole pipeline of
//! the DSG oracle but the target: [`Transactions::of`], [`Dsg::build`] and [`cycles::search`]
//! (`analyse` itself needs a live target, for predicates). The report gives each phase's time,
//! transactions per second and the growth ratio time(n) / time(previous n): about the size
//! ratio when checking grows linearly.
//!
//! The histories: transactions of 1–4 statements (`SELECT`s and `UPDATE`s of 1–2 rows each)
//! over a hot key space of [`KEYS`] rows, run by [`SESSIONS`] sessions whose statements
//! interleave at random. A transaction takes the rows it will touch when it begins, as a
//! conservative two-phase locker would, so concurrent ones never touch the same row and the
//! history is serializable but dense in dependencies. Then, one pair per [`PLANT_EVERY`]
//! transactions, two transactions of two more sessions run one anomaly on two free rows: G0
//! (dirty writes), G1c (circular dirty reads), a lost update (G-single) or a write skew
//! (G2-item). Of those the search reports G0 and G-single (G0 hides G1c, an item G-single hides
//! G2-item), each by its shortest cycle, from a few hundred small components.
//!
//! Published figures for comparison (found with the search tool; these checkers solve a harder
//! problem, black-box key-value histories whose version order they must infer, where txhunt's
//! instrumentation records every row's version order):
//! * AWDIT (Møldrup and Pavlogiannis, PLDI 2025, arXiv 2504.06975) reports in its abstract an
//!   average speedup over the best previous tester of 245×, 193× and 62× (RC, RA, CC) on the
//!   ~20% largest histories; its artifact (repository `lassemoldrup/AWDIT`) compares it with
//!   Plume on 198 histories of 2^10–2^20 operations, and its raw results
//!   (`results/experiment2/…-cockroachdb-tpcc-rc-t50000-time.csv` and `…-stats.csv`) give, for
//!   CockroachDB TPC-C histories of 84,130–88,850 transactions (2.4–2.8 million operations,
//!   10–100 sessions) at Read Committed, 4.1–4.8 s for AWDIT and 27–36 s for Plume.
//! * Plume (Liu, Gu, Wei and Basin, OOPSLA 2024, "Plume: Efficient and Complete Black-Box
//!   Checking of Weak Isolation Levels"): only its abstract was found, which gives no checking
//!   times; no figure of its own paper is cited here.

use serde::Serialize;
use std::fmt::Write as _;
use std::time::{Duration, Instant};
use txhunt_model::access::{
    Accesses, Predicate, Read, RowId, TableMeta, Version, Write, WriteKind,
};
use txhunt_model::{
    Event, History, Isolation, Outcome, Step, StepRecord, Stmt, TestCase, TxnRecord, TxnStatus,
    Value,
};
use txhunt_oracle::dsg::cycles::{self, Search};
use txhunt_oracle::dsg::{Dsg, Transactions, COMPONENT_BUDGET};

/// Rows of the hot key space.
pub const KEYS: usize = 1_000;
/// Sessions that run the serializable transactions.
pub const SESSIONS: usize = 8;
/// One planted anomaly (a pair of transactions) per this many transactions.
pub const PLANT_EVERY: usize = 250;
/// Checks of each history at most, the median time counting: as many as fit in
/// [`REPEAT_WITHIN`] (one at least).
const REPEAT: usize = 3;
/// How long the checks of one history may take before no more are started.
const REPEAT_WITHIN: Duration = Duration::from_secs(10);

/// The whole run of `txhunt bench dsg`.
#[derive(Debug, Serialize)]
pub struct DsgReport {
    /// The generator's seed.
    pub seed: u64,
    /// One row per history size, in the order asked.
    pub sizes: Vec<DsgSize>,
}

/// The check of one synthetic history.
#[derive(Debug, Serialize)]
pub struct DsgSize {
    /// Transactions in the history.
    pub transactions: usize,
    /// Statements (steps) in it.
    pub steps: usize,
    /// Dependencies in its DSG.
    pub edges: usize,
    /// Median time of [`Transactions::of`], in ms.
    pub transactions_ms: f64,
    /// Median time of [`Dsg::build`], in ms.
    pub build_ms: f64,
    /// Median time of [`cycles::search`], in ms.
    pub search_ms: f64,
    /// Median time of the three together, in ms.
    pub total_ms: f64,
    /// Transactions checked per second.
    pub transactions_per_second: f64,
    /// How many checks the median is of.
    pub checks: usize,
    /// `total_ms` over the previous size's, when there is one.
    pub growth: Option<f64>,
    /// The size over the previous size, when there is one (what `growth` is for linear time).
    pub size_ratio: Option<f64>,
    /// The phenomena found (`G0`, `G-single`, …).
    pub phenomena: Vec<String>,
    /// Components whose search ran out of its budget.
    pub unknown: usize,
}

/// Checks a synthetic history of each of `sizes` transactions, generated from `seed`.
pub fn dsg(sizes: &[usize], seed: u64) -> DsgReport {
    let mut rows: Vec<DsgSize> = Vec::new();
    for &n in sizes {
        let (case, history) = synthetic(n, seed, &Plant::ALL);
        let mut row = measure(&case, &history);
        if let Some(previous) = rows.last() {
            row.growth = Some(row.total_ms / previous.total_ms);
            row.size_ratio = Some(row.transactions as f64 / previous.transactions as f64);
        }
        rows.push(row);
    }
    DsgReport { seed, sizes: rows }
}

/// The median of up to [`REPEAT`] checks of `history`, a run of `case`.
fn measure(case: &TestCase, history: &History) -> DsgSize {
    let start = Instant::now();
    let mut runs = vec![check(case, history)];
    while runs.len() < REPEAT && start.elapsed() < REPEAT_WITHIN {
        runs.push(check(case, history));
    }
    let checks = runs.len();
    runs.sort_by(|a, b| a.0.iter().sum::<f64>().total_cmp(&b.0.iter().sum::<f64>()));
    let (times, edges, search) = runs.swap_remove(checks / 2);
    let total_ms: f64 = times.iter().sum();
    let transactions = history.txns.len();
    DsgSize {
        transactions,
        steps: case.steps.len(),
        edges,
        transactions_ms: times[0],
        build_ms: times[1],
        search_ms: times[2],
        total_ms,
        transactions_per_second: transactions as f64 / (total_ms / 1000.0),
        checks,
        growth: None,
        size_ratio: None,
        phenomena: search
            .cycles
            .iter()
            .map(|c| c.class.name().to_string())
            .collect(),
        unknown: search.unknown.len(),
    }
}

/// One check of `history`: the time of each phase in ms, the DSG's edges and what the search
/// found.
fn check(case: &TestCase, history: &History) -> ([f64; 3], usize, Search) {
    let ms = |since: Instant| since.elapsed().as_secs_f64() * 1000.0;
    let start = Instant::now();
    let txns = Transactions::of(case, history);
    let transactions_ms = ms(start);
    let start = Instant::now();
    let dsg = Dsg::build(history, &txns, &|t| txns.committed[t]);
    let build_ms = ms(start);
    let start = Instant::now();
    let search = cycles::search(&dsg, COMPONENT_BUDGET);
    let search_ms = ms(start);
    (
        [transactions_ms, build_ms, search_ms],
        dsg.edges.len(),
        search,
    )
}

impl DsgReport {
    /// The report for people.
    pub fn text(&self) -> String {
        let mut out = format!(
            "DSG check of synthetic histories (seed {}; {KEYS} hot rows, {SESSIONS} sessions, \
             an anomaly pair per {PLANT_EVERY} transactions): Transactions::of + Dsg::build + \
             cycles::search, median of up to {REPEAT} checks\n\
             {:>12} {:>9} {:>9} {:>9} {:>9} {:>10} {:>9} {:>11} {:>15} {:>6}  phenomena\n",
            self.seed,
            "transactions",
            "steps",
            "edges",
            "txns ms",
            "build ms",
            "search ms",
            "total ms",
            "txns/s",
            "growth",
            "checks"
        );
        for size in &self.sizes {
            out.push_str(&size.line());
        }
        out
    }
}

impl DsgSize {
    /// The size's line in the report for people.
    fn line(&self) -> String {
        let growth = match (self.growth, self.size_ratio) {
            (Some(g), Some(r)) => format!("{g:.2} (size {r:.0}x)"),
            _ => "-".to_string(),
        };
        let mut phenomena = self.phenomena.join(", ");
        if self.unknown > 0 {
            let _ = write!(phenomena, "; {} components unknown", self.unknown);
        }
        format!(
            "{:>12} {:>9} {:>9} {:>9.1} {:>9.1} {:>10.1} {:>9.1} {:>11.0} {:>15} {:>6}  {phenomena}\n",
            self.transactions,
            self.steps,
            self.edges,
            self.transactions_ms,
            self.build_ms,
            self.search_ms,
            self.total_ms,
            self.transactions_per_second,
            growth,
            self.checks
        )
    }
}

/// An anomaly planted in a synthetic history: two transactions on two rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Plant {
    /// Dirty writes: each overwrites a row the other wrote first (G0).
    G0,
    /// Dirty reads: each reads a row the other wrote, before either commits (G1c).
    G1c,
    /// Both read a row, one updates it and commits, then the other updates it (G-single).
    LostUpdate,
    /// Both read two rows, each updates a different one (G2-item).
    WriteSkew,
}

/// One statement of a planted pair: which of the two transactions, and what it does to
/// which of the two rows.
type Scripted = (usize, Op);

/// What a statement does.
#[derive(Debug, Clone, Copy)]
enum Op {
    /// BEGIN.
    Begin,
    /// Reads these rows.
    Read(&'static [usize]),
    /// Updates these rows.
    Write(&'static [usize]),
    /// COMMIT.
    Commit,
}

impl Plant {
    /// Every kind, in the order they are planted.
    const ALL: [Plant; 4] = [Plant::G0, Plant::G1c, Plant::LostUpdate, Plant::WriteSkew];

    /// The pair's statements, in order.
    fn script(self) -> [Scripted; 8] {
        use Op::{Begin, Commit, Read, Write};
        let middle: [Scripted; 4] = match self {
            Plant::G0 => [
                (0, Write(&[0])),
                (1, Write(&[0])),
                (1, Write(&[1])),
                (0, Write(&[1])),
            ],
            Plant::G1c => [
                (0, Write(&[0])),
                (1, Read(&[0])),
                (1, Write(&[1])),
                (0, Read(&[1])),
            ],
            Plant::LostUpdate => [
                (0, Read(&[0])),
                (1, Read(&[0])),
                (1, Write(&[0])),
                (1, Commit),
            ],
            Plant::WriteSkew => [
                (0, Read(&[0, 1])),
                (1, Read(&[0, 1])),
                (0, Write(&[0])),
                (1, Write(&[1])),
            ],
        };
        let end: [Scripted; 2] = match self {
            Plant::LostUpdate => [(0, Write(&[0])), (0, Commit)],
            _ => [(0, Commit), (1, Commit)],
        };
        let [a, b, c, d] = middle;
        [(0, Begin), (1, Begin), a, b, c, d, end[0], end[1]]
    }
}

/// A synthetic instrumented history of `transactions` committed transactions (generated from
/// `seed`, with `plants` planted in turn), and its case.
fn synthetic(transactions: usize, seed: u64, plants: &[Plant]) -> (TestCase, History) {
    let mut synth = Synth::new(seed);
    let pairs = if plants.is_empty() {
        0
    } else {
        transactions / PLANT_EVERY
    };
    let ordinary = transactions - 2 * pairs;
    let gap = (ordinary / (pairs + 1)).max(1);
    let mut open: Vec<Option<Open>> = (0..SESSIONS).map(|_| None).collect();
    let (mut started, mut planted) = (0, 0);
    while started < ordinary || open.iter().any(Option::is_some) {
        let s = synth.rng.below(SESSIONS);
        match open[s].take() {
            None if started < ordinary => {
                if planted < pairs && started >= gap * (planted + 1) {
                    synth.plant(plants[planted % plants.len()]);
                    planted += 1;
                }
                open[s] = Some(synth.begin(s));
                started += 1;
            }
            None => {}
            Some(txn) => open[s] = synth.advance(s, txn),
        }
    }
    while planted < pairs {
        synth.plant(plants[planted % plants.len()]);
        planted += 1;
    }
    synth.finish()
}

/// A serializable transaction under way: its rows and its statements left.
struct Open {
    /// The rows it holds.
    keys: Vec<usize>,
    /// Its statements, each a read or not and its rows; the next one first.
    plan: Vec<(bool, Vec<usize>)>,
}

/// The generator's state: the history so far and the rows' latest versions.
struct Synth {
    /// The random source.
    rng: Rng,
    /// Per row, its latest version.
    latest: Vec<Version>,
    /// Per row, its value.
    value: Vec<i64>,
    /// Per row, whether an open transaction holds it.
    held: Vec<bool>,
    /// The statements so far.
    steps: Vec<Step>,
    /// What each did.
    records: Vec<StepRecord>,
    /// Per transaction so far, its session.
    txn_sessions: Vec<String>,
}

impl Synth {
    /// An empty history over the initial rows.
    fn new(seed: u64) -> Synth {
        Synth {
            rng: Rng(seed),
            latest: vec![Version::Init(1); KEYS],
            value: vec![0; KEYS],
            held: vec![false; KEYS],
            steps: Vec::new(),
            records: Vec::new(),
            txn_sessions: Vec::new(),
        }
    }

    /// Begins a serializable transaction on session `s`: takes 1–4 free rows and plans 1–4
    /// statements over them.
    fn begin(&mut self, s: usize) -> Open {
        let count = 1 + self.rng.below(4);
        let keys = self.free_keys(count);
        for &k in &keys {
            self.held[k] = true;
        }
        let statements = 1 + self.rng.below(4);
        let mut plan: Vec<(bool, Vec<usize>)> = (0..statements)
            .map(|_| {
                let count = 1 + self.rng.below(2.min(keys.len()));
                let first = self.rng.below(keys.len());
                let rows = (0..count).map(|i| keys[(first + i) % keys.len()]).collect();
                (self.rng.below(2) == 0, rows)
            })
            .collect();
        plan.reverse();
        self.statement(&ordinary(s), Op::Begin);
        Open { keys, plan }
    }

    /// Runs the next statement of `txn` on session `s`, or commits it: the transaction, if
    /// still open.
    fn advance(&mut self, s: usize, mut txn: Open) -> Option<Open> {
        let session = ordinary(s);
        let Some((read, rows)) = txn.plan.pop() else {
            self.statement(&session, Op::Commit);
            for &k in &txn.keys {
                self.held[k] = false;
            }
            return None;
        };
        self.run(&session, read, &rows);
        Some(txn)
    }

    /// Runs a planted pair on two free rows, its sessions `p0` and `p1`.
    fn plant(&mut self, plant: Plant) {
        let rows = self.free_keys(2);
        for (who, op) in plant.script() {
            let session = format!("p{who}");
            match op {
                Op::Read(slots) | Op::Write(slots) => {
                    let keys: Vec<usize> = slots.iter().map(|&i| rows[i]).collect();
                    self.run(&session, matches!(op, Op::Read(_)), &keys);
                }
                Op::Begin | Op::Commit => self.statement(&session, op),
            }
        }
    }

    /// `count` distinct rows no open transaction holds.
    fn free_keys(&mut self, count: usize) -> Vec<usize> {
        let mut keys = Vec::with_capacity(count);
        while keys.len() < count {
            let k = self.rng.below(KEYS);
            if !self.held[k] && !keys.contains(&k) {
                keys.push(k);
            }
        }
        keys
    }

    /// Records a read (`read`) or an update of `keys` on `session`.
    fn run(&mut self, session: &str, read: bool, keys: &[usize]) {
        let list = keys
            .iter()
            .map(|k| k.to_string())
            .collect::<Vec<_>>()
            .join(", ");
        let condition = format!("k IN ({list})");
        let (sql, outcome, accesses) = if read {
            self.read(keys, condition)
        } else {
            self.write(keys, condition)
        };
        self.push(session, sql, outcome, accesses);
    }

    /// A SELECT of `keys`: their latest versions.
    fn read(&self, keys: &[usize], condition: String) -> (String, Outcome, Accesses) {
        let reads: Vec<Read> = keys
            .iter()
            .map(|&k| Read {
                row: row(k),
                version: Some(self.latest[k]),
            })
            .collect();
        let rows = keys
            .iter()
            .map(|&k| vec![Value::Int(k as i64), Value::Int(self.value[k])])
            .collect();
        let sql = format!("SELECT k, v FROM t WHERE {condition}");
        let outcome = Outcome::Rows {
            columns: vec!["k".into(), "v".into()],
            rows,
        };
        (sql, outcome, accesses(reads, Vec::new(), condition))
    }

    /// An UPDATE of `keys`: a new version of each, the step's own.
    fn write(&mut self, keys: &[usize], condition: String) -> (String, Outcome, Accesses) {
        let step = self.steps.len();
        let writes: Vec<Write> = keys
            .iter()
            .map(|&k| {
                self.value[k] += 1;
                let overwrote = std::mem::replace(&mut self.latest[k], Version::Step(step));
                Write {
                    row: row(k),
                    kind: WriteKind::Update,
                    overwrote: Some(overwrote),
                    image: vec![Value::Int(k as i64), Value::Int(self.value[k])],
                }
            })
            .collect();
        let sql = format!("UPDATE t SET v = v + 1 WHERE {condition}");
        let outcome = Outcome::Affected {
            count: keys.len() as u64,
        };
        (sql, outcome, accesses(Vec::new(), writes, condition))
    }

    /// Records a BEGIN or COMMIT on `session`.
    fn statement(&mut self, session: &str, op: Op) {
        let sql = match op {
            Op::Begin => {
                self.txn_sessions.push(session.to_string());
                "BEGIN"
            }
            _ => "COMMIT",
        };
        self.push(session, sql.into(), Outcome::Ok, Accesses::default());
    }

    /// Records a statement that completed at once.
    fn push(&mut self, session: &str, sql: String, outcome: Outcome, accesses: Accesses) {
        let index = self.steps.len();
        self.steps.push(Step {
            session: session.to_string(),
            stmt: Stmt::new(sql),
        });
        self.records.push(StepRecord {
            submitted: Some(index),
            completed: Some(index),
            blocked: false,
            outcome,
            resumed_together: None,
            accesses: Some(accesses),
        });
    }

    /// The case and its history.
    fn finish(self) -> (TestCase, History) {
        let case = TestCase {
            init: vec![
                Stmt::new("CREATE TABLE t (k INT PRIMARY KEY, v INT)"),
                Stmt::new(format!(
                    "INSERT INTO t SELECT g, 0 FROM generate_series(0, {}) g",
                    KEYS - 1
                )),
            ],
            steps: self.steps,
            ..TestCase::default()
        };
        let history = History {
            target: "synthetic".into(),
            isolation: Isolation::ReadUncommitted,
            init: vec![Outcome::Ok, Outcome::Affected { count: KEYS as u64 }],
            init_writes: Vec::new(),
            schedule: (0..self.records.len())
                .map(|step| Event::Completed { step })
                .collect(),
            steps: self.records,
            txns: labels(&self.txn_sessions)
                .into_iter()
                .map(|label| TxnRecord {
                    label,
                    status: TxnStatus::Committed,
                })
                .collect(),
            final_state: None,
            final_state_error: None,
            tables: vec![TableMeta {
                name: "t".into(),
                columns: vec!["k".into(), "v".into()],
                key: vec!["k".into()],
            }],
        };
        (case, history)
    }
}

/// The session of the `s`-th serializable session.
fn ordinary(s: usize) -> String {
    format!("s{s}")
}

/// Row `k` of table `t`.
fn row(k: usize) -> RowId {
    RowId {
        table: "t".into(),
        rid: k as i64 + 1,
    }
}

/// What a statement over `condition` read and wrote.
fn accesses(reads: Vec<Read>, writes: Vec<Write>, condition: String) -> Accesses {
    let matched = if writes.is_empty() {
        reads.clone()
    } else {
        (writes.iter())
            .map(|w| Read {
                row: w.row.clone(),
                version: w.overwrote,
            })
            .collect()
    };
    Accesses {
        reads,
        version_set_reads: 0,
        writes,
        predicates: vec![Predicate {
            table: "t".into(),
            condition: Some(condition),
            matched,
        }],
        untracked: Vec::new(),
    }
}

/// The transactions' labels as [`TestCase::txns`] gives them: the session, then `#k` when
/// the session ran several.
fn labels(sessions: &[String]) -> Vec<String> {
    let mut total: std::collections::HashMap<&str, usize> = Default::default();
    for s in sessions {
        *total.entry(s).or_default() += 1;
    }
    let mut seen: std::collections::HashMap<&str, usize> = Default::default();
    sessions
        .iter()
        .map(|s| {
            let k = seen.entry(s).or_default();
            *k += 1;
            match total[s.as_str()] {
                1 => s.clone(),
                _ => format!("{s}#{k}"),
            }
        })
        .collect()
}

/// SplitMix64: a small seeded generator, the same numbers on every platform.
struct Rng(u64);

impl Rng {
    /// The next number.
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n`.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use txhunt_model::adya::Phenomenon;

    /// The phenomena the search finds in a synthetic history of `n` transactions with
    /// `plants`, checking the history's shape on the way.
    fn found(n: usize, plants: &[Plant]) -> (Vec<Phenomenon>, Search, Transactions) {
        let (case, history) = synthetic(n, 7, plants);
        assert_eq!(history.steps.len(), case.steps.len());
        assert_eq!(history.txns.len(), case.txns().len());
        let txns = Transactions::of(&case, &history);
        assert_eq!(txns.labels.len(), n);
        assert!(txns.committed.iter().all(|&c| c));
        let dsg = Dsg::build(&history, &txns, &|t| txns.committed[t]);
        assert!(dsg.edges.len() > n, "{} edges", dsg.edges.len());
        let search = cycles::search(&dsg, Duration::MAX);
        assert!(search.unknown.is_empty());
        (
            search.cycles.iter().map(|c| c.class).collect(),
            search,
            txns,
        )
    }

    #[test]
    fn without_plants_a_synthetic_history_is_serializable() {
        assert_eq!(found(1_000, &[]).0, []);
    }

    #[test]
    fn the_planted_anomalies_are_found_between_the_planted_transactions() {
        for (plants, expected) in [
            (&Plant::ALL[..], [Phenomenon::G0, Phenomenon::GSingle]),
            (
                &[Plant::G1c, Plant::WriteSkew][..],
                [Phenomenon::G1c, Phenomenon::G2Item],
            ),
        ] {
            let (classes, search, txns) = found(2_000, plants);
            assert_eq!(classes, expected, "{plants:?}");
            for cycle in &search.cycles {
                assert_eq!(cycle.edges.len(), 2, "{cycle:?}");
                let planted = |t: usize| txns.labels[t].starts_with('p');
                assert!(cycle.edges.iter().all(|e| planted(e.from)), "{cycle:?}");
            }
        }
    }

    #[test]
    fn labels_are_the_cases_own() {
        let (case, history) = synthetic(600, 3, &Plant::ALL);
        let from_case: Vec<String> = case.txns().into_iter().map(|t| t.label).collect();
        let recorded: Vec<String> = history.txns.into_iter().map(|t| t.label).collect();
        assert_eq!(recorded, from_case);
    }

    #[test]
    fn the_report_has_a_row_per_size_and_growth_after_the_first() {
        let report = dsg(&[300, 600], 1);
        assert_eq!(report.sizes.len(), 2);
        assert_eq!(report.sizes[0].growth, None);
        assert_eq!(report.sizes[1].size_ratio, Some(2.0));
        assert!(report.sizes.iter().all(|s| s.edges > 0 && s.unknown == 0));
        assert!(report.text().contains("G0"));
    }
}
