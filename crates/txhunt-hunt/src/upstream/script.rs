//! The statements an export runs, with what each must do and the order they submit and
//! complete in, built once from a case and (when given) its observed history.

use super::UpstreamError;
use txhunt_model::{
    DbError, ErrorClass, Event, Expect, History, Isolation, Outcome, Row, SqlFamily, StmtKind,
    TestCase,
};

/// What a statement must do.
#[derive(Debug, Clone, Copy)]
pub(super) enum Expected<'a> {
    /// Succeed (returning nothing, or nothing the test checks).
    Ok,
    /// Return these rows; the column names when the history recorded them.
    Rows {
        /// The column names, if known.
        columns: Option<&'a [String]>,
        /// The rows, in the order they were returned.
        rows: &'a [Row],
    },
    /// Write this many rows.
    Affected(u64),
    /// Fail: with this class if known, and this error if observed.
    Error {
        /// The error's class, if known.
        class: Option<ErrorClass>,
        /// The error the DBMS reported, if observed.
        observed: Option<&'a DbError>,
    },
}

/// One statement of the export.
#[derive(Debug, Clone)]
pub(super) struct Statement<'a> {
    /// Index into [`Script::sessions`].
    pub session: usize,
    /// Its SQL, without a terminating `;`.
    pub sql: &'a str,
    /// Whether it waits on a lock when submitted.
    pub blocked: bool,
    /// What it must do.
    pub expected: Expected<'a>,
}

/// A point of the run: a statement submitted (and, unless it blocks, completed) or a blocked
/// statement completing; each an index into [`Script::statements`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Point {
    /// Submitted; run to its end unless it blocks.
    Submit(usize),
    /// A blocked statement completes.
    Complete(usize),
}

/// A case as the exports run it.
#[derive(Debug, Clone)]
pub(super) struct Script<'a> {
    /// The sessions' labels as the scenario writes them, in order of first appearance.
    pub sessions: Vec<&'a str>,
    /// The setup statements, run first on a connection of their own.
    pub init: Vec<&'a str>,
    /// The level every session runs at, if one is known.
    pub isolation: Option<Isolation>,
    /// The statements of the sessions.
    pub statements: Vec<Statement<'a>>,
    /// The order they run in.
    pub points: Vec<Point>,
    /// Where the case came from (its header's id and link), the target and level observed.
    pub origin: Vec<String>,
    /// Per session, whether its last transaction is left open at the end.
    pub left_open: Vec<bool>,
    /// Per session, whether it runs a statement outside a BEGIN … COMMIT/ROLLBACK block.
    pub autocommits: Vec<bool>,
}

impl<'a> Script<'a> {
    /// The script of `case`, expecting what `observed` recorded when given.
    pub fn build(case: &'a TestCase, observed: Option<&'a History>) -> Result<Self, UpstreamError> {
        let sessions = case.sessions();
        let session_of = |label: &str| sessions.iter().position(|s| *s == label).unwrap_or(0);
        let (statements, points) = match observed {
            Some(history) => observed_run(case, history, &session_of)?,
            None => expected_run(case, &session_of),
        };
        let isolation = match (observed, case.header.isolation.as_slice()) {
            (Some(history), _) => Some(history.isolation),
            (None, [level]) => Some(*level),
            (None, _) => None,
        };
        let mut origin = Vec::new();
        if let Some(id) = &case.header.id {
            origin.push(format!("txhunt finding {id}"));
        }
        if let Some(title) = &case.header.title {
            origin.push(title.clone());
        }
        if let Some(link) = &case.header.link {
            origin.push(link.clone());
        }
        if let Some(history) = observed {
            origin.push(format!(
                "outcomes observed on {} at {}",
                history.target, history.isolation
            ));
        }
        let txns = case.txns();
        let left_open = (sessions.iter())
            .map(|session| {
                txns.iter()
                    .rev()
                    .find(|t| t.session == *session)
                    .is_some_and(|t| {
                        let last = t.steps.last().map(|&s| case.steps[s].stmt.kind());
                        t.explicit && !last.is_some_and(StmtKind::ends_txn)
                    })
            })
            .collect();
        let autocommits = (sessions.iter())
            .map(|session| txns.iter().any(|t| t.session == *session && !t.explicit))
            .collect();
        Ok(Script {
            init: case.init.iter().map(|s| s.sql.as_str()).collect(),
            sessions,
            isolation,
            statements,
            points,
            origin,
            left_open,
            autocommits,
        })
    }

    /// Whether a statement waits on a lock.
    pub fn blocks(&self) -> bool {
        self.statements.iter().any(|s| s.blocked)
    }

    /// The tables the setup creates, in the order it creates them.
    pub fn created_tables(&self, family: SqlFamily) -> Vec<String> {
        let mut tables: Vec<String> = Vec::new();
        for sql in &self.init {
            let words: Vec<String> = (sql.split_whitespace().take(2))
                .map(str::to_ascii_lowercase)
                .collect();
            if words != ["create", "table"] {
                continue;
            }
            for table in txhunt_sql::analysis::tables(sql, family) {
                if !tables.contains(&table) {
                    tables.push(table);
                }
            }
        }
        tables
    }

    /// For every statement, its number within its session, counted from 1.
    pub fn numbers_in_session(&self) -> Vec<usize> {
        let mut counts = vec![0; self.sessions.len()];
        (self.statements.iter())
            .map(|s| {
                counts[s.session] += 1;
                counts[s.session]
            })
            .collect()
    }
}

/// The statements and points of the run `history` recorded.
fn observed_run<'a>(
    case: &'a TestCase,
    history: &'a History,
    session_of: &dyn Fn(&str) -> usize,
) -> Result<(Vec<Statement<'a>>, Vec<Point>), UpstreamError> {
    if history.steps.len() != case.steps.len() {
        return Err(UpstreamError::NotThisCase {
            case: case.steps.len(),
            history: history.steps.len(),
        });
    }
    for (step, record) in history.steps.iter().enumerate() {
        if matches!(
            record.outcome,
            Outcome::Hang { .. } | Outcome::NeverCompleted
        ) {
            return Err(UpstreamError::Unfinished {
                step,
                sql: case.steps[step].stmt.sql.clone(),
                outcome: record.outcome.to_string(),
            });
        }
    }
    let txns = case.txns();
    let mut statements: Vec<Statement<'a>> = Vec::new();
    let mut points = Vec::new();
    let mut index_of_step: Vec<Option<usize>> = vec![None; case.steps.len()];
    for event in &history.schedule {
        match *event {
            Event::Blocked { step } | Event::Completed { step } => {
                let Some(record) = history.steps.get(step) else {
                    continue;
                };
                if let Some(at) = index_of_step[step] {
                    points.push(Point::Complete(at));
                    continue;
                }
                let Some(expected) = observed_outcome(&record.outcome) else {
                    continue;
                };
                index_of_step[step] = Some(statements.len());
                points.push(Point::Submit(statements.len()));
                statements.push(Statement {
                    session: session_of(&case.steps[step].session),
                    sql: &case.steps[step].stmt.sql,
                    blocked: record.blocked,
                    expected,
                });
            }
            Event::Rollback { txn, ref outcome } => {
                let (Some(txn), Some(expected)) = (txns.get(txn), observed_outcome(outcome)) else {
                    continue;
                };
                points.push(Point::Submit(statements.len()));
                statements.push(Statement {
                    session: session_of(&txn.session),
                    sql: "ROLLBACK",
                    blocked: false,
                    expected,
                });
            }
        }
    }
    Ok((statements, points))
}

/// What a statement that ended with `outcome` must do; `None` when it was not run.
fn observed_outcome(outcome: &Outcome) -> Option<Expected<'_>> {
    Some(match outcome {
        Outcome::Ok => Expected::Ok,
        Outcome::Rows { columns, rows } => Expected::Rows {
            columns: Some(columns),
            rows,
        },
        Outcome::Affected { count } => Expected::Affected(*count),
        Outcome::Error(e) => Expected::Error {
            class: Some(e.class),
            observed: Some(e),
        },
        Outcome::Hang { .. } | Outcome::NeverCompleted | Outcome::NotRun { .. } => return None,
    })
}

/// The statements and points of the scenario's own order and expectations: a statement
/// expected to block completes just before its session's next statement, or at the end.
fn expected_run<'a>(
    case: &'a TestCase,
    session_of: &dyn Fn(&str) -> usize,
) -> (Vec<Statement<'a>>, Vec<Point>) {
    let mut statements: Vec<Statement<'a>> = Vec::new();
    let mut points = Vec::new();
    let mut waiting: Vec<usize> = Vec::new();
    for step in &case.steps {
        let session = session_of(&step.session);
        if let Some(at) = waiting
            .iter()
            .position(|&s| statements[s].session == session)
        {
            points.push(Point::Complete(waiting.remove(at)));
        }
        let (blocked, expected) = expected_outcome(step.stmt.expect.as_ref());
        if blocked {
            waiting.push(statements.len());
        }
        points.push(Point::Submit(statements.len()));
        statements.push(Statement {
            session,
            sql: &step.stmt.sql,
            blocked,
            expected,
        });
    }
    points.extend(waiting.into_iter().map(Point::Complete));
    (statements, points)
}

/// Whether a statement expected to do `expect` blocks, and what it must do in the end.
fn expected_outcome(expect: Option<&Expect>) -> (bool, Expected<'_>) {
    match expect {
        None | Some(Expect::Ok) => (false, Expected::Ok),
        Some(Expect::Rows { rows }) => (
            false,
            Expected::Rows {
                columns: None,
                rows,
            },
        ),
        Some(Expect::Affected { count }) => (false, Expected::Affected(*count)),
        Some(Expect::Error { class }) => (
            false,
            Expected::Error {
                class: *class,
                observed: None,
            },
        ),
        Some(Expect::Blocked { then }) => (true, expected_outcome(then.as_deref()).1),
    }
}
