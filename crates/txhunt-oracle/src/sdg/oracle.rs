//! The SDG oracle (paper 002 §3.3): graph decycling, then oracle checking against a sequential
//! execution, with txhunt's choices where the paper leaves room:
//!
//! * **Decycling** removes, from a cycle of the graph, the statement that completed last in the
//!   run (the paper picks at random) and re-executes the refined case, instrumented, with the
//!   same submitted order; after [`DECYCLE_ROUNDS`] removals a case still cyclic is left to the
//!   DSG oracle, and the oracle says so.
//! * **Order**: among statements free to go next, the one that completed first in the run
//!   ([`Graph::order`]).
//! * **What a predicate did not match** is not recorded (the paper over-approximates it with
//!   whole-table version-set reads, which would take locks at SERIALIZABLE and change when
//!   InnoDB takes its snapshot). Instead the sequential run is itself instrumented: when a
//!   statement there returned, matched or overwrote a row version it did not see in the run,
//!   the run's statement must have seen an older or a newer version of that row, and the
//!   statement is placed before the version's installer or after the next version's (first the
//!   one the run's schedule makes visible, then the other), and the order is run again, up to
//!   [`SEQUENTIAL_RUNS`] times. A statement that fails there (an INSERT on a key another row
//!   holds, an UPDATE that matched more rows) reports no rows: the versions current at its
//!   place of the rows of its tables it did not observe in the run are placed the same way.
//!   A placement that closes a cycle makes the statement's placements be chosen again all
//!   together; if none fits, a statement that saw no version of a row that existed from the
//!   setup to the end fits no place and is reported when it observes each row by the row
//!   alone (one table, no join or subquery: a join's row may lack its partner), and any
//!   other cycle is a dependency no
//!   record showed (a predicate anti-dependency): decycling follows. An INSERT whose
//!   affected count differs is out of reach (which rows it collided with is not recorded). A
//!   difference no placement explains is reported; one still being explained after the last
//!   run leaves the case unjudged.
//! * **Levels**: Theorem 1 needs a level of at least cursor stability (paper 002 Fig. 7): a
//!   run at a level whose DBMS lets dirty reads through (G1a) is left to the DSG oracle.
//! * **Documented behaviour** (issue: permissible vs bug): a difference the level's documented
//!   behaviour explains, shown by evidence, is permissible, not a bug candidate ([`super::permit`]
//!   lists the rules).

use super::graph::{observed, Edge, Graph, Kind};
use super::permit::{excuse, waited};
use super::sequential::Sequential;
use crate::dsg::oracle::reopened_by_savepoint;
use crate::dsg::rows;
use crate::evidence::state_diff;
use crate::{Detail, Divergence, Finding, Judged, OracleId, Signature, Unjudged};
use std::collections::{HashMap, HashSet};
use txhunt_exec::Runner;
use txhunt_model::access::{RowId, Version, Write, WriteKind};
use txhunt_model::adya::Phenomenon;
use txhunt_model::scenario::print;
use txhunt_model::{History, Outcome, StmtKind, TestCase};
use txhunt_sql::analysis::row_by_row;

/// How many statements decycling removes before it leaves a case to the DSG oracle.
pub const DECYCLE_ROUNDS: usize = 4;
/// How many sequential runs may be spent placing statements by what they did not match.
pub const SEQUENTIAL_RUNS: usize = 8;

/// The statement-dependency-graph oracle (TxCheck).
#[derive(Debug, Default, Clone, Copy)]
pub struct Sdg;

impl crate::Oracle for Sdg {
    fn id(&self) -> OracleId {
        OracleId::Sdg
    }

    fn check(&self, case: &TestCase, history: &History, runner: &dyn Runner) -> Judged {
        match judge(case, history, runner) {
            Ok(verdict) => Judged {
                findings: verdict.findings,
                unjudged: Vec::new(),
            },
            Err(NotJudged { scope, reason, .. }) => Judged {
                findings: Vec::new(),
                unjudged: vec![Unjudged {
                    oracle: OracleId::Sdg,
                    scope: scope.map(str::to_string),
                    reason,
                }],
            },
        }
    }
}

/// What the oracle concluded of a run.
#[derive(Debug, Clone)]
pub struct Verdict {
    /// The statements (steps of the case) in the sequential order last run.
    pub order: Vec<usize>,
    /// The steps decycling removed.
    pub removed: Vec<usize>,
    /// Its findings (none: every statement and the final state agreed).
    pub findings: Vec<Finding>,
}

/// Why the oracle did not judge a run.
#[derive(Debug, Clone)]
pub struct NotJudged {
    /// What put the run out of reach (`None`: a derived case could not run).
    pub scope: Option<&'static str>,
    /// In words.
    pub reason: String,
}

impl NotJudged {
    /// A run out of the oracle's reach for `scope`.
    fn out_of(scope: &'static str, reason: String) -> NotJudged {
        NotJudged {
            scope: Some(scope),
            reason,
        }
    }

    /// A derived case that could not run.
    pub(super) fn infrastructure(reason: String) -> NotJudged {
        NotJudged {
            scope: None,
            reason,
        }
    }
}

/// A run of the case as decycling refined it.
pub(super) struct Refined {
    /// The case, without the statements removed.
    pub(super) case: TestCase,
    /// Its instrumented run.
    pub(super) history: History,
    /// Per step of `case`, the original case's step.
    pub(super) origin: Vec<usize>,
    /// The original steps removed, in the order they were.
    removed: Vec<usize>,
}

/// The oracle's verdict on `history`, an instrumented run of `case`, or why it could not
/// judge it; derived cases run through `runner`.
pub fn judge(
    case: &TestCase,
    history: &History,
    runner: &dyn Runner,
) -> Result<Verdict, NotJudged> {
    if (runner.profile().guarantee(history.isolation))
        .allowance(Phenomenon::G1a)
        .is_some()
    {
        return Err(NotJudged::out_of(
            "dirty-reads",
            format!("{} lets a statement read writes that are later rolled back, and Theorem 1 (paper 002 §3.2, Fig. 7) needs a level of at least cursor stability; the DSG oracle judges this run", history.isolation),
        ));
    }
    if let Some(why) = reopened_by_savepoint(case, history, runner) {
        return Err(NotJudged::out_of("savepoint-after-abort", why));
    }
    let mut run = Refined {
        case: case.clone(),
        history: history.clone(),
        origin: (0..case.steps.len()).collect(),
        removed: Vec::new(),
    };
    'decycled: loop {
        let graph = Graph::build(&run.case, &run.history);
        untracked(&run, &graph)?;
        if let Some(cycle) = graph.cycle(&[]) {
            run = decycle(run, &graph, &cycle, runner)?;
            continue;
        }
        let mut learnt: Vec<Edge> = Vec::new();
        'runs: for _ in 0..SEQUENTIAL_RUNS {
            let order = graph
                .order(&learnt)
                .expect("only placements that keep the graph acyclic are learnt");
            let seq = Sequential::of(&run.case, &order);
            let seq_history = runner
                .run_instrumented(&seq.case, run.history.isolation)
                .map_err(|e| {
                    NotJudged::infrastructure(format!("the sequential order could not run: {e}"))
                })?;
            let differing = seq.differing(&run.history, &seq_history);
            let states = (run.history.final_state.as_ref()).zip(seq_history.final_state.as_ref());
            let state_differs = states.is_some_and(|(a, b)| a != b);
            let report = Report::new(&run, &graph, &seq, &seq_history, &learnt);
            // Later differences may follow from the first (Algorithm 1 stops at the first):
            // the first is the one to explain.
            let verdict = |findings| Verdict {
                order: order.iter().map(|&s| run.origin[s]).collect(),
                removed: run.removed.clone(),
                findings,
            };
            let Some(&(first, i)) = differing.first() else {
                let findings = state_differs.then(|| report.finding(None, &[]));
                return Ok(verdict(findings.into_iter().collect()));
            };
            let unseen = match seq.unseen(&run.history, &seq_history, i) {
                Some(rows) if rows.is_empty() => {
                    current_unobserved(&run.history, &order, i, &seq_history.steps[i].outcome)
                }
                Some(rows) => rows,
                None => Vec::new(),
            };
            let later: Vec<usize> = differing[1..].iter().map(|&(s, _)| s).collect();
            let mut placed: Vec<Edge> = Vec::new();
            for (row, version) in unseen.iter().cloned() {
                let mut all = learnt.clone();
                all.extend(placed.iter().cloned());
                match place(&graph, &all, first, &row, version) {
                    Placement::Placed(e) => placed.push(e),
                    // Every way to keep it from seeing that version closes a cycle with the
                    // placements made so far: choose this statement's placements again, all
                    // at once.
                    Placement::Cyclic(e) => {
                        let mut pairs: Vec<(RowId, Version)> = (all.iter())
                            .filter(|e| {
                                e.kind == Kind::Unseen && (e.from == first || e.to == first)
                            })
                            .map(|e| (e.row.clone(), e.version))
                            .chain(unseen.iter().cloned())
                            .collect();
                        pairs.sort();
                        pairs.dedup();
                        let others: Vec<Edge> = (all.iter())
                            .filter(|e| {
                                e.kind != Kind::Unseen || (e.from != first && e.to != first)
                            })
                            .cloned()
                            .collect();
                        if let Some(fit) = refit(&graph, &others, first, &pairs) {
                            learnt = others;
                            learnt.extend(fit);
                            continue 'runs;
                        }
                        // A statement that waited where the DBMS documents that a waiting
                        // statement of its kind sees two moments is that; one that saw no
                        // version of a row that existed throughout fits no place at all, and
                        // no other statement's place explains that: only its own wait can
                        // (a DELETE that waited and missed the row its holder moved is
                        // MDEV-27992, whoever else waited).
                        let profile = runner.profile();
                        let claims = profile.claims(run.history.isolation);
                        let sql = &run.case.steps[first].stmt.sql;
                        let missed = row_by_row(sql, profile.family())
                            .then(|| missed_row(&graph, &run.history, &pairs))
                            .flatten();
                        let others = if missed.is_some() {
                            &[][..]
                        } else {
                            &learnt[..]
                        };
                        let excused = waited(&run, first, others, claims, profile.family());
                        if excused.is_some() || missed.is_some() {
                            let mut finding = report.finding(Some(first), &later);
                            let text = match missed {
                                Some(row) => format!("{} saw no version of row {} in the run, which existed from the start to the end: no place in any order fits it", report.labels[first], report.row(&row)),
                                None => format!("no order its recorded dependencies allow keeps {} from every row version it did not see in the run", report.labels[first]),
                            };
                            finding.details.push(Detail::Note { text });
                            finding.permissible = excused;
                            return Ok(verdict(vec![finding]));
                        }
                        // Otherwise the cycle runs through the recorded dependencies or other
                        // statements' placements: a dependency the run has that no record
                        // showed (a predicate anti-dependency); decycle, as the paper does.
                        all.push(e);
                        let cycle = graph.cycle(&all).expect("the placement closes a cycle");
                        run = decycle(run, &graph, &cycle, runner)?;
                        continue 'decycled;
                    }
                    Placement::Impossible => {}
                }
            }
            if placed.is_empty() {
                let (ran, sequential) = (
                    &run.history.steps[first].outcome,
                    &seq_history.steps[i].outcome,
                );
                if let Some(why) = untracked_conflicts(&run.case, first, ran, sequential) {
                    return Err(NotJudged::out_of(
                        "untracked",
                        format!("step {}: {why}", run.origin[first] + 1),
                    ));
                }
                let mut finding = report.finding(Some(first), &later);
                finding.permissible = excuse(&run, first, &order, &learnt, runner)?;
                return Ok(verdict(vec![finding]));
            }
            learnt.extend(placed);
        }
        return Err(NotJudged::out_of(
            "undecided",
            format!("{SEQUENTIAL_RUNS} sequential orders left a statement whose result differs only in rows its run did not show"),
        ));
    }
}

/// `run` without the statement of `cycle` that completed last, re-executed; an error once
/// [`DECYCLE_ROUNDS`] statements are gone.
fn decycle(
    run: Refined,
    graph: &Graph,
    cycle: &[usize],
    runner: &dyn Runner,
) -> Result<Refined, NotJudged> {
    if run.removed.len() == DECYCLE_ROUNDS {
        return Err(NotJudged::out_of(
            "cyclic",
            format!("the statement dependency graph stayed cyclic after removing {DECYCLE_ROUNDS} statements; the DSG oracle judges this run"),
        ));
    }
    let last = *cycle
        .iter()
        .max_by_key(|&&s| (graph.completed(s), s))
        .expect("a cycle has statements");
    without(run, last, runner)
}

/// Why the run is out of the oracle's reach, if it is: not instrumented, statements
/// instrumentation did not track (their effects are not in the graph), or a statement that read
/// a version no committed statement installed (G1a, G1b's aborted half: no sequential order
/// of committed statements shows it; the DSG oracle judges those).
fn untracked(run: &Refined, graph: &Graph) -> Result<(), NotJudged> {
    let history = &run.history;
    if history.tables.is_empty() {
        return Err(NotJudged::out_of(
            "not-instrumented",
            "the run was not instrumented: no read/write history".into(),
        ));
    }
    for &s in &graph.nodes {
        let step = run.origin[s] + 1;
        let Some(accesses) = &history.steps[s].accesses else {
            return Err(NotJudged::out_of(
                "untracked",
                format!("step {step} has no read/write record"),
            ));
        };
        if let Some(why) = accesses.untracked.first() {
            return Err(NotJudged::out_of(
                "untracked",
                format!("step {step} is not tracked: {why}"),
            ));
        }
        for (_, version) in observed(&history.steps[s]) {
            let aborted = match version {
                Version::Step(i) => !graph.nodes.contains(&i),
                Version::Init(_) => false,
            };
            if aborted {
                return Err(NotJudged::out_of(
                    "aborted-read",
                    format!("step {step} read version {version}, which no committed statement installed; the DSG oracle judges this run"),
                ));
            }
        }
        if accesses.reads.iter().any(|r| r.version.is_none()) {
            return Err(NotJudged::out_of(
                "untracked",
                format!("step {step} read rows an untracked statement wrote"),
            ));
        }
    }
    Ok(())
}

/// `run` without its step `step`, re-executed.
fn without(run: Refined, step: usize, runner: &dyn Runner) -> Result<Refined, NotJudged> {
    let mut case = run.case;
    case.steps.remove(step);
    let mut origin = run.origin;
    let mut removed = run.removed;
    removed.push(origin.remove(step));
    let history = runner
        .run_instrumented(&case, run.history.isolation)
        .map_err(|e| {
            NotJudged::infrastructure(format!(
                "the case without a statement of a cycle could not run: {e}"
            ))
        })?;
    Ok(Refined {
        case,
        history,
        origin,
        removed,
    })
}

/// How statement `s` can be kept from seeing a version.
enum Placement {
    /// By this edge, which keeps the graph acyclic.
    Placed(Edge),
    /// Only by edges that close a cycle; this one among them.
    Cyclic(Edge),
    /// In no way: the version is the row's first and no statement installs another.
    Impossible,
}

/// The placement of statement `s` that keeps it from seeing `version` of `row`, among the two
/// that can (after the next version's installer, or before this version's), that keeps the
/// graph acyclic with `learnt`; the one the run's schedule points to first.
fn place(graph: &Graph, learnt: &[Edge], s: usize, row: &RowId, version: Version) -> Placement {
    let options = options(graph, s, row, version);
    let acyclic = options.iter().find(|e| {
        let mut all = learnt.to_vec();
        all.push((*e).clone());
        graph.order(&all).is_some()
    });
    match (acyclic, options.first()) {
        (Some(e), _) => Placement::Placed(e.clone()),
        (None, Some(e)) => Placement::Cyclic(e.clone()),
        (None, None) => Placement::Impossible,
    }
}

/// The edges that keep statement `s` from seeing `version` of `row` (after the next
/// version's installer, or before this version's), the one the run's schedule points to
/// first.
fn options(graph: &Graph, s: usize, row: &RowId, version: Version) -> Vec<Edge> {
    let unseen = |from: usize, to: usize| Edge {
        from,
        to,
        kind: Kind::Unseen,
        row: row.clone(),
        version,
    };
    let after = graph
        .next(row, version)
        .filter(|&j| j != s)
        .map(|j| unseen(j, s));
    let before = match version {
        Version::Step(i) if i != s && graph.nodes.contains(&i) => Some(unseen(s, i)),
        _ => None,
    };
    let options = if after
        .as_ref()
        .is_some_and(|e| graph.visible_before(e.from, s))
    {
        [after, before]
    } else {
        [before, after]
    };
    options.into_iter().flatten().collect()
}

/// The most versions of one statement [`refit`] chooses placements for together (2 ways each).
const REFIT_PAIRS: usize = 12;

/// One placement per version of `pairs` (row, version) for statement `s`, all acyclic with
/// `fixed`, if there is one among the first [`REFIT_PAIRS`] versions' ways.
fn refit(graph: &Graph, fixed: &[Edge], s: usize, pairs: &[(RowId, Version)]) -> Option<Vec<Edge>> {
    let choices: Vec<Vec<Edge>> = (pairs.iter())
        .map(|(row, version)| options(graph, s, row, *version))
        .filter(|o| !o.is_empty())
        .collect();
    if choices.len() > REFIT_PAIRS {
        return None;
    }
    let ways: usize = choices.iter().map(Vec::len).product();
    (0..ways)
        .map(|mut way| {
            let mut all = fixed.to_vec();
            for options in &choices {
                all.push(options[way % options.len()].clone());
                way /= options.len();
            }
            all
        })
        .find(|all| graph.order(all).is_some())
        .map(|all| all[fixed.len()..].to_vec())
}

/// A row that existed from the setup to the end of the run (never deleted) of which a
/// statement saw none of the committed versions, `unseen` (row, version) pairs: wherever it
/// goes in a sequential order, it sees one of them. Asked only of a statement that observes
/// each row by that row's version alone ([`row_by_row`]): a join or a subquery that did not
/// observe a row may have lacked its partner, which no version of the row itself shows. (A
/// cycle through other statements' dependencies only is a dependency no record showed:
/// decycling's business, as in the paper.)
fn missed_row(graph: &Graph, history: &History, unseen: &[(RowId, Version)]) -> Option<RowId> {
    let deletes = |s: usize, row: &RowId| {
        (history.steps[s].accesses.iter())
            .flat_map(|a| &a.writes)
            .any(|w| &w.row == row && w.kind == WriteKind::Delete)
    };
    let init_rows = (unseen.iter()).filter(|(_, v)| matches!(v, Version::Init(_)));
    init_rows
        .filter(|(row, init)| {
            let mut version = *init;
            loop {
                if !unseen.contains(&(row.clone(), version)) {
                    return false;
                }
                match graph.next(row, version) {
                    Some(j) if deletes(j, row) => return false,
                    Some(j) => version = Version::Step(j),
                    None => return true,
                }
            }
        })
        .map(|(row, _)| row.clone())
        .next()
}

/// Why the difference of statement `s` between its run (`ran`) and the sequential order
/// (`sequential`) is out of reach, if it is:
/// * an INSERT succeeded both times with other counts, so one of them skipped or merged rows
///   that collided with existing ones (`ON CONFLICT`, `INSERT IGNORE`, `ON DUPLICATE KEY
///   UPDATE`), and which rows an INSERT collided with is not recorded;
/// * one of them failed a foreign key check, which reads the rows of another table (the
///   parent's for a child row, the children's for a parent row) that no record shows.
fn untracked_conflicts(
    case: &TestCase,
    s: usize,
    ran: &Outcome,
    sequential: &Outcome,
) -> Option<String> {
    let foreign_key = |o: &Outcome| {
        o.error()
            .is_some_and(|e| e.message.to_ascii_lowercase().contains("foreign key"))
    };
    match (ran, sequential) {
        (Outcome::Affected { count: a }, Outcome::Affected { count: b })
            if case.steps[s].stmt.kind() == StmtKind::Insert && a != b =>
        {
            Some(format!("an INSERT affected {a} rows in the run and {b} in the sequential order, and which existing rows it collided with is not recorded"))
        }
        (ran, sequential) if foreign_key(ran) != foreign_key(sequential) => Some(
            "a foreign key check failed in one order and not in the other, and which rows of the other table it read is not recorded".into(),
        ),
        _ => None,
    }
}

/// For statement `s` (at `position` in the sequential `order`) that failed in the sequential
/// order where it succeeded in the run: a failed statement reports no rows, so every version
/// current there of a row of its tables that it did not observe in the run is a candidate for
/// what made it fail (a row its predicate matched, a key an INSERT collided with). Each
/// placement is checked by the next sequential run. A row no statement of the order (of a
/// committed transaction) wrote is no candidate: it is the same wherever the statement goes
/// (and not observing it is what a predicate that does not match it does), even where an
/// aborted transaction's statement wrote it in the run.
fn current_unobserved(
    history: &History,
    order: &[usize],
    position: usize,
    sequential: &Outcome,
) -> Vec<(RowId, Version)> {
    let s = order[position];
    let Some(accesses) = history.steps[s].accesses.as_ref() else {
        return Vec::new();
    };
    if sequential.error().is_none() {
        return Vec::new();
    }
    let tables: HashSet<&str> = (accesses.writes.iter().map(|w| w.row.table.as_str()))
        .chain(accesses.predicates.iter().map(|p| p.table.as_str()))
        .collect();
    let mut current: HashMap<RowId, Version> = HashMap::new();
    let mut apply = |version: Version, writes: &[Write]| {
        for w in writes {
            if w.kind == WriteKind::Delete {
                current.remove(&w.row);
            } else {
                current.insert(w.row.clone(), version);
            }
        }
    };
    for (i, ws) in history.init_writes.iter().enumerate() {
        apply(Version::Init(i), ws);
    }
    for &n in &order[..position] {
        if let Some(a) = &history.steps[n].accesses {
            apply(Version::Step(n), &a.writes);
        }
    }
    let seen: HashSet<RowId> = observed(&history.steps[s])
        .into_iter()
        .map(|(r, _)| r)
        .collect();
    let written: HashSet<&RowId> = (order.iter())
        .filter_map(|&n| history.steps[n].accesses.as_ref())
        .flat_map(|a| a.writes.iter().map(|w| &w.row))
        .collect();
    let mut unobserved: Vec<(RowId, Version)> = current
        .into_iter()
        .filter(|(row, _)| {
            tables.contains(row.table.as_str()) && !seen.contains(row) && written.contains(row)
        })
        .collect();
    unobserved.sort();
    unobserved
}

/// What a report of a difference needs.
struct Report<'a> {
    run: &'a Refined,
    graph: &'a Graph,
    seq: &'a Sequential,
    seq_history: &'a History,
    learnt: &'a [Edge],
    /// Per step of the refined case, its label (`t1.2`: the second statement of `t1`).
    labels: Vec<String>,
    /// Readable row names (`t(k=1)`).
    rows: HashMap<RowId, String>,
}

impl<'a> Report<'a> {
    fn new(
        run: &'a Refined,
        graph: &'a Graph,
        seq: &'a Sequential,
        seq_history: &'a History,
        learnt: &'a [Edge],
    ) -> Self {
        Report {
            labels: label_steps(&run.case),
            rows: rows::names(&run.history),
            run,
            graph,
            seq,
            seq_history,
            learnt,
        }
    }

    /// The finding: statement `first` (a step of the refined case) is the first whose outcome
    /// differs, `later` those that differ after it (`None`: only the final state differs).
    fn finding(&self, first: Option<usize>, later: &[usize]) -> Finding {
        let case = &self.run.case;
        let mut details = vec![self.order()];
        let (what, summary) = match first {
            Some(s) => {
                let stmt = &case.steps[s].stmt;
                let what = if stmt.kind() == StmtKind::Select {
                    Divergence::Read
                } else {
                    Divergence::Write
                };
                let i = self.position(s);
                let summary = format!(
                    "sdg: {} `{}` gave {} in the run but {} in the sequential order of its dependencies",
                    self.labels[s],
                    stmt.sql,
                    self.run.history.steps[s].outcome,
                    self.seq_history.steps[i].outcome
                );
                (what, summary)
            }
            None => (
                Divergence::FinalState,
                "sdg: every statement returned what it returned in the run, but the sequential order ends in another state".to_string(),
            ),
        };
        for (n, &s) in first.iter().chain(later).enumerate() {
            details.push(Detail::Statement {
                session: case.steps[s].session.clone(),
                sql: case.steps[s].stmt.sql.clone(),
                concurrent: self.run.history.steps[s].outcome.clone(),
                serial: self.seq_history.steps[self.position(s)].outcome.clone(),
            });
            let text = if n == 0 {
                format!("{}'s place: {}", self.labels[s], self.place_of(s))
            } else {
                format!("{} differs after the first difference", self.labels[s])
            };
            details.push(Detail::Note { text });
        }
        if let (Some(ours), Some(seq)) =
            (&self.run.history.final_state, &self.seq_history.final_state)
        {
            details.extend(state_diff(ours, seq));
        }
        if !self.run.removed.is_empty() {
            let removed: Vec<String> = (self.run.removed.iter())
                .map(|s| format!("step {}", s + 1))
                .collect();
            details.push(Detail::Note {
                text: format!(
                    "decycling removed {} and re-ran the rest: the case judged is the scenario without them",
                    removed.join(", ")
                ),
            });
        }
        let steps = first
            .iter()
            .chain(later)
            .map(|&s| self.run.origin[s])
            .collect();
        Finding {
            details,
            ..Finding::new(Signature::Sdg(what), summary, steps)
        }
    }

    /// Where step `s` of the refined case is in the sequential order.
    fn position(&self, s: usize) -> usize {
        (self.seq.origin.iter())
            .position(|&o| o == s)
            .expect("a differing statement is in the sequential order")
    }

    /// The sequential order, as labels and as a replayable scenario.
    fn order(&self) -> Detail {
        Detail::SequentialOrder {
            order: (self.seq.origin.iter())
                .map(|&s| self.labels[s].clone())
                .collect::<Vec<_>>()
                .join(" → "),
            scenario: print(&self.seq.case),
        }
    }

    /// A row as the case's tables name it, e.g. `t(k=1)`.
    fn row(&self, row: &RowId) -> String {
        (self.rows.get(row).cloned()).unwrap_or_else(|| row.to_string())
    }

    /// The dependencies that fix where statement `s` goes, in words.
    fn place_of(&self, s: usize) -> String {
        let learnt = self.learnt.iter().filter(|e| e.to == s || e.from == s);
        let text: Vec<String> = (self.graph.around(s).chain(learnt))
            .map(|e| {
                let (rel, other) = if e.to == s {
                    ("after", e.from)
                } else {
                    ("before", e.to)
                };
                format!(
                    "{rel} {} ({} on {}, version {})",
                    self.labels[other],
                    e.kind.name(),
                    self.row(&e.row),
                    e.version
                )
            })
            .collect();
        if text.is_empty() {
            "free: it depends on no other statement".into()
        } else {
            text.join("; ")
        }
    }
}

/// Per step, a label: its transaction's and its place in it (`t1.2`).
pub fn label_steps(case: &TestCase) -> Vec<String> {
    let mut labels = vec![String::new(); case.steps.len()];
    for txn in case.txns() {
        for (k, &s) in txn.steps.iter().enumerate() {
            labels[s] = format!("{}.{}", txn.label, k + 1);
        }
    }
    labels
}
