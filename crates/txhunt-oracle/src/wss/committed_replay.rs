//! READ COMMITTED decided by replay, statement by statement ([`Evidence::CommittedReplay`]):
//! for InnoDB below REPEATABLE READ, where every statement reads the newest committed
//! versions of rows (a consistent read takes a fresh snapshot; an UPDATE reads the newest
//! committed version of a row another transaction locked, and skips it when that does not
//! match: semi-consistent read), and for PostgreSQL's READ COMMITTED, where every statement
//! reads a snapshot taken when it starts; in both, writes lock rows until commit.
//!
//! Such a run is shown by replay: every statement of a committed transaction, run alone on
//! the state committed when it started plus its own transaction's changes before it,
//! answers as it did concurrently; and the changes each transaction's statements made,
//! applied in commit order, give the final state without one removing a row another
//! transaction's had already changed. On InnoDB a statement that waited for a lock is
//! replayed on the state committed when it completed instead (its blocker had ended by then,
//! and its scan went on over the newest versions); where that answers otherwise, it saw both
//! moments: where its scan's order is known, it is replayed on the rows its scan passed before
//! the wait as they were when it started and the rest as they were when it completed
//! ([`scan_states`], which never excuses a row an UPDATE moved behind the scan, MDEV-27992);
//! otherwise the run is not shown. PostgreSQL
//! re-checks only the rows a waiting statement had found, never rows that came to match
//! meanwhile, which the state at its completion would show it: there it is replayed at its
//! start. Where that answers otherwise, the statement decides row by row
//! ([`row_by_row`]), and the transactions that committed while it waited only deleted and
//! inserted rows (each of their statements, as replayed, only removed or only added rows:
//! [`may_move_rows`]), it is replayed on the rows of its start still there when it completed
//! ("re-checked"): the re-check drops a found row that was deleted, and an inserted row was
//! never found. A row updated meanwhile would be re-checked in its new version, which that
//! state leaves out: with an update (an UPDATE, or an upsert that updated) committed meanwhile
//! the run is not shown.
//! A savepoint's ROLLBACK TO takes back the changes its transaction made after it.
//! Unlike the statement order ([`Evidence::StatementOrder`]), this needs no
//! instrumentation, so it also covers statements the SDG oracle cannot track (REPLACE).
//!
//! [`Evidence::CommittedReplay`]: crate::permit::Evidence::CommittedReplay
//! [`Evidence::StatementOrder`]: crate::permit::Evidence::StatementOrder

use super::scan_order::scan_states;
use super::schedule::Unit;
use super::snapshot::{apply, commit_position, positions, replayed, same_outcome, Replays};
use super::{order, NotShown};
use txhunt_exec::Runner;
use txhunt_model::value::bag_difference;
use txhunt_model::{DbState, Event, History, Outcome, SqlFamily, StmtKind, TestCase};
use txhunt_sql::analysis::{row_by_row, updates_on_conflict};

/// `Ok` saying how the committed transactions of `history` (`units`) form a READ COMMITTED
/// execution at the statement level, or `Err` with the first thing that shows they do not.
pub fn committed_replay(
    case: &TestCase,
    history: &History,
    units: &[Unit],
    runner: &dyn Runner,
) -> Result<String, NotShown> {
    let state = history.final_state.as_ref().ok_or("no final state")?;
    let replayed = replay(case, history, units, runner, &|_| true)?;
    let mut current = replayed.initial;
    for &u in &replayed.by_commit {
        for (old, new) in &replayed.changes[u] {
            current = apply(&current, old, new).map_err(|row| {
                format!(
                    "{} changed row {row} that a transaction committed before it had already changed",
                    replayed.committed[u].label
                )
            })?;
        }
    }
    if &current != state {
        return Err(
            "the committed transactions' changes, statement by statement, applied in commit order, do not give the final state"
                .into(),
        );
    }
    let ordered: Vec<Unit> = (replayed.by_commit.iter())
        .map(|&u| replayed.committed[u].clone())
        .collect();
    Ok(format!(
        "every statement of the committed transactions ({}) answers as it does alone on the state committed when it started{}{}{}, and their changes applied in commit order give the final state",
        order(&ordered),
        if replayed.after_waits { " (when it completed, if it waited)" } else { "" },
        if replayed.rechecked {
            " (one that waited while rows it had found were deleted: on those of its rows still there when it completed, as PostgreSQL's re-check leaves them)"
        } else {
            ""
        },
        if replayed.scanned {
            SCANNED
        } else {
            ""
        }
    ))
}

/// `Ok` when every UPDATE and DELETE of the committed transactions that did not wait, each
/// deciding on every row by that row alone ([`row_by_row`]), answers as it does alone on the
/// state committed when it ran plus its transaction's earlier changes; `Err` with the first
/// that does not. That is what InnoDB documents for its writes below REPEATABLE READ (READ
/// UNCOMMITTED "otherwise works like READ COMMITTED"): a write reads the newest committed
/// version of each row, and skips a row another transaction locked without waiting only when
/// that version does not match (semi-consistent read); a row whose committed version matches
/// makes it wait. A write that skipped such a row, or acted on another transaction's
/// uncommitted change, answers otherwise.
pub fn writes_on_committed_versions(
    case: &TestCase,
    history: &History,
    units: &[Unit],
    runner: &dyn Runner,
) -> Result<String, NotShown> {
    let family = runner.profile().family();
    let judged = |s: usize| {
        let stmt = &case.steps[s].stmt;
        !history.steps[s].blocked
            && matches!(stmt.kind(), StmtKind::Update | StmtKind::Delete)
            && row_by_row(&stmt.sql, family)
    };
    let replayed = replay(case, history, units, runner, &judged)?;
    let writes: Vec<String> = (replayed.committed.iter())
        .flat_map(|u| u.steps.iter().filter(|&&s| judged(s)).map(move |&s| (u, s)))
        .map(|(u, s)| format!("{} `{}`", u.label, case.steps[s].stmt.sql))
        .collect();
    if writes.is_empty() {
        return Ok("no UPDATE or DELETE of a committed transaction ran without waiting".into());
    }
    Ok(format!(
        "every UPDATE and DELETE that did not wait ({}) answers as it does alone on the newest committed versions when it ran, with its transaction's earlier changes: no row it skipped had a matching committed version",
        writes.join(", ")
    ))
}

/// The committed transactions' statements replayed, each alone on the state committed when it
/// read plus its transaction's earlier changes.
struct Replayed<'a> {
    /// The committed transactions.
    committed: Vec<&'a Unit>,
    /// The state before any of them.
    initial: DbState,
    /// Per committed transaction: each of its statements' state before and after.
    changes: Vec<Vec<(DbState, DbState)>>,
    /// The committed transactions in commit order.
    by_commit: Vec<usize>,
    /// Whether a statement that waited read when it completed (InnoDB), not when it started.
    after_waits: bool,
    /// Whether a statement that waited was replayed re-checked (PostgreSQL).
    rechecked: bool,
    /// Whether a statement that waited was replayed on the rows its scan passed before the
    /// wait as they were when it started, and the rest as they were when it completed (InnoDB).
    scanned: bool,
}

/// Replays every statement of `history`'s committed transactions (`units`) alone on the state
/// committed when it read (where it started, or, when it waited on InnoDB, where it
/// completed) plus its transaction's earlier changes; `Err` when a statement `judged` answers
/// otherwise than it did concurrently.
fn replay<'a>(
    case: &TestCase,
    history: &History,
    units: &'a [Unit],
    runner: &dyn Runner,
    judged: &dyn Fn(usize) -> bool,
) -> Result<Replayed<'a>, NotShown> {
    let committed = replayed(units);
    let completed = positions(history);
    let txns = case.txns();
    let commits: Vec<usize> = (committed.iter())
        .map(|u| commit_position(case, &txns, &completed, u))
        .collect::<Option<_>>()
        .ok_or("a committed transaction's end is not in the schedule")?;
    // Each statement with the point it read at: where it started, or, when it waited on
    // InnoDB, where it completed.
    let mut statements: Vec<(usize, usize, usize)> = Vec::new();
    let after_waits = runner.profile().family() == SqlFamily::Mysql;
    for (u, unit) in committed.iter().enumerate() {
        for &s in &unit.steps {
            let at = if history.steps[s].blocked && after_waits {
                completed.get(&s).copied()
            } else {
                started(history, s)
            };
            statements.push((at.ok_or("a statement is not in the schedule")?, u, s));
        }
    }
    statements.sort();
    let replays = Replays::new(case, history, runner);
    let initial = replays.initial()?;
    // Per committed transaction: each of its statements' state before and after.
    let mut changes: Vec<Vec<(DbState, DbState)>> = vec![Vec::new(); committed.len()];
    let mut by_commit: Vec<usize> = (0..committed.len()).collect();
    by_commit.sort_by_key(|&u| commits[u]);
    // Per committed transaction: its savepoints, by name, with how many changes it had made.
    let mut savepoints: Vec<Vec<(String, usize)>> = vec![Vec::new(); committed.len()];
    let (mut any_rechecked, mut any_scanned) = (false, false);
    for (at, u, s) in statements {
        let sql = &case.steps[s].stmt.sql;
        // A savepoint statement that failed changed nothing (a ROLLBACK TO of a savepoint
        // its transaction did not set).
        let succeeded = history.steps[s].outcome.succeeded();
        match case.steps[s].stmt.kind() {
            StmtKind::Savepoint if succeeded => {
                savepoints[u].push((savepoint_name(sql), changes[u].len()));
                continue;
            }
            StmtKind::RollbackTo if succeeded => {
                changes[u].truncate(kept_at(&savepoints[u], sql)?);
                continue;
            }
            StmtKind::Savepoint | StmtKind::RollbackTo | StmtKind::Release => continue,
            _ => {}
        }
        let committed_at = |point: usize| {
            let before = by_commit.iter().filter(|&&v| commits[v] < point && v != u);
            let mut state = initial.clone();
            for change in before.map(|&v| &changes[v]).chain([&changes[u]]) {
                for (old, new) in change {
                    state = apply(&state, old, new).map_err(|row| {
                        format!(
                            "the state {} read cannot be rebuilt ({row})",
                            committed[u].label
                        )
                    })?;
                }
            }
            Ok::<DbState, NotShown>(state)
        };
        let mut state = committed_at(at)?;
        let mut ran = replays.run_statement_on(&state, &committed[u].label, s)?;
        // The first judged statement that answers otherwise than it did concurrently.
        let differing = |answers: &[(usize, Outcome)]| {
            (answers.iter())
                .find(|(step, outcome)| {
                    judged(*step) && !same_outcome(&history.steps[*step].outcome, outcome)
                })
                .cloned()
        };
        // Whether any statement does (a statement not judged still leaves the state the
        // statements after it read).
        let differs = |answers: &[(usize, Outcome)]| {
            (answers.iter()).any(|(step, o)| !same_outcome(&history.steps[*step].outcome, o))
        };
        if differs(&ran.1) && history.steps[s].blocked {
            // The wait: from where it started to where it completed.
            let (begun, done) = (started(history, s), completed.get(&s).copied());
            let (Some(begun), Some(done)) = (begun, done) else {
                return Err("a statement that waited is not in the schedule".into());
            };
            let moved = (0..committed.len())
                .filter(|&v| v != u && (begun..done).contains(&commits[v]))
                .any(|v| (changes[v].iter()).any(|(old, new)| may_move_rows(old, new)));
            let family = runner.profile().family();
            // InnoDB: the rows its scan passed before the wait read when it started.
            // PostgreSQL: the rows it had found re-checked when it completed.
            let others = if after_waits {
                let start = committed_at(begun)?;
                scan_states(case, s, family, &start, &state, moved)
            } else if row_by_row(sql, family) && !moved {
                vec![still_there(&state, &committed_at(done)?)]
            } else {
                Vec::new()
            };
            for other in others {
                let again = replays.run_statement_on(&other, &committed[u].label, s)?;
                if !differs(&again.1) {
                    (state, ran) = (other, again);
                    *if after_waits {
                        &mut any_scanned
                    } else {
                        &mut any_rechecked
                    } = true;
                    break;
                }
            }
        }
        let (after, answers) = ran;
        if let Some((step, outcome)) = differing(&answers) {
            return Err(format!(
                "{} `{}` answered {} concurrently, but alone on the state committed when it {} (with its transaction's changes before it) answers {}",
                committed[u].label,
                case.steps[step].stmt.sql,
                history.steps[step].outcome,
                if history.steps[step].blocked && after_waits {
                    "completed"
                } else {
                    "started"
                },
                outcome
            )
            .into());
        }
        changes[u].push((state, after));
    }
    Ok(Replayed {
        committed,
        initial,
        changes,
        by_commit,
        after_waits,
        rechecked: any_rechecked,
        scanned: any_scanned,
    })
}

/// Whether the change from `before` to `after` (a statement's, as replayed) both removed and
/// added rows of one table: it may have updated a row, and moved it in its table's key order.
/// A change that only deleted rows, or only inserted them (an upsert that updated nothing, as
/// its replay shows), moved none.
pub(super) fn may_move_rows(before: &DbState, after: &DbState) -> bool {
    before.tables().any(|(name, rows)| {
        let other = after.table(name).unwrap_or_default();
        !bag_difference(rows, other).is_empty() && !bag_difference(other, rows).is_empty()
    })
}

/// Whether `steps` changed rows only by deleting them and inserting new ones: no UPDATE, no
/// INSERT that updates on conflict ([`updates_on_conflict`]), no `REPLACE`, nothing else (DDL).
pub(super) fn only_deletes_and_inserts(
    case: &TestCase,
    steps: &[usize],
    family: SqlFamily,
) -> bool {
    steps.iter().all(|&s| {
        let sql = &case.steps[s].stmt.sql;
        match case.steps[s].stmt.kind() {
            StmtKind::Update | StmtKind::Other => false,
            StmtKind::Insert => {
                sql.trim_start().to_ascii_uppercase().starts_with("INSERT")
                    && !updates_on_conflict(sql, family)
            }
            _ => true,
        }
    })
}

/// How the evidence names a replay on the rows a scan passed before its wait as they were
/// when it started, and the rest as they were when it completed.
pub(super) const SCANNED: &str = " (one that waited: on the rows its scan had passed before the wait as they were when it started, and the rest as they were when it completed, as InnoDB's locking scan reads them in key order)";

/// The rows of `start` still in `end` (each as often as in both), table by table of `start`.
fn still_there(start: &DbState, end: &DbState) -> DbState {
    let mut state = DbState::new();
    for (name, rows) in start.tables() {
        let gone = bag_difference(rows, end.table(name).unwrap_or_default());
        state.insert(name, bag_difference(rows, &gone));
    }
    state
}

/// The savepoint `sql` (`SAVEPOINT sp1`, `ROLLBACK TO [SAVEPOINT] sp1`) names, lowercase.
pub(super) fn savepoint_name(sql: &str) -> String {
    sql.split_whitespace()
        .last()
        .unwrap_or_default()
        .trim_end_matches(';')
        .to_lowercase()
}

/// How many changes its transaction had made when it set the savepoint ROLLBACK TO `sql`
/// returns to (`savepoints`: each savepoint's name, with that count, in the order set).
pub(super) fn kept_at(savepoints: &[(String, usize)], sql: &str) -> Result<usize, NotShown> {
    let name = savepoint_name(sql);
    (savepoints.iter().rev())
        .find(|(n, _)| *n == name)
        .map(|(_, kept)| *kept)
        .ok_or_else(|| "a ROLLBACK TO names a savepoint its transaction did not set".into())
}

/// Where step `s` started in the schedule: its first event.
fn started(history: &History, s: usize) -> Option<usize> {
    history.schedule.iter().position(|e| match e {
        Event::Blocked { step } | Event::Completed { step } => *step == s,
        Event::Rollback { .. } => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use txhunt_model::Value;

    #[test]
    fn rows_still_there_are_those_of_the_start_the_end_still_holds() {
        let row = |k: i64| vec![Value::Int(k)];
        let mut start = DbState::new();
        start.insert("t", vec![row(1), row(2), row(2)]);
        start.insert("u", vec![row(5)]);
        let mut end = DbState::new();
        end.insert("t", vec![row(2), row(3)]);
        let kept = still_there(&start, &end);
        assert_eq!(kept.table("t"), Some(&[row(2)][..]));
        assert_eq!(kept.table("u"), Some(&[][..]));
    }

    #[test]
    fn only_deletes_and_plain_inserts_leave_every_other_row_as_it_was() {
        let case = txhunt_model::scenario::parse(
            "/* init */ CREATE TABLE t (k INT PRIMARY KEY);
             /* t1 */ DELETE FROM t WHERE k = 1;
             /* t1 */ INSERT INTO t VALUES (2) ON CONFLICT DO NOTHING;
             /* t1 */ SELECT k FROM t;
             /* t2 */ UPDATE t SET k = 3;
             /* t3 */ INSERT INTO t VALUES (2) ON CONFLICT (k) DO UPDATE SET k = 4;
             /* t4 */ REPLACE INTO t VALUES (2);",
            "case.sql",
        )
        .expect("parses");
        let unit = |label: &str| Unit {
            label: label.into(),
            steps: (0..case.steps.len())
                .filter(|&s| case.steps[s].session == label)
                .collect(),
            explicit: false,
            committed: true,
            tie: None,
        };
        assert!(only_deletes_and_inserts(
            &case,
            &unit("t1").steps,
            SqlFamily::Mysql
        ));
        for label in ["t2", "t3", "t4"] {
            assert!(
                !only_deletes_and_inserts(&case, &unit(label).steps, SqlFamily::Mysql),
                "{label}"
            );
        }
    }
}
