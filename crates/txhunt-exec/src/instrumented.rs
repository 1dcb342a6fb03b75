//! Instrumented execution: a case run with every statement rewritten by
//! [`txhunt_sql::instrument`], and its history decoded back into what the case's own
//! statements showed (hidden columns removed, a write's `RETURNING` rows turned back into its
//! row count) plus the row versions each statement read and wrote.

use crate::Executor;
use txhunt_db::{Target, TargetError};
use txhunt_model::access::{
    is_hidden, Accesses, Predicate, Read, RowId, TableMeta, Version, Write, WriteKind,
    HIDDEN_COLUMNS,
};
use txhunt_model::{DbState, History, Isolation, Outcome, Row, TestCase, Value};
use txhunt_sql::instrument::{plan, Plan, Unsupported};

/// Why an instrumented execution could not run.
#[derive(Debug, thiserror::Error)]
pub enum InstrumentError {
    /// The target's SQL family has no instrumentation yet.
    #[error(transparent)]
    Unsupported(#[from] Unsupported),
    /// The target failed (as in [`Executor::execute`]).
    #[error(transparent)]
    Target(#[from] TargetError),
}

/// The plans of a case's setup statements and steps, and the tables it creates.
struct Plans {
    init: Vec<Plan>,
    steps: Vec<Plan>,
    tables: Vec<TableMeta>,
}

impl Plans {
    fn of(case: &TestCase, target: &dyn Target) -> Result<Plans, Unsupported> {
        let family = target.profile().family();
        let mut tables = Vec::new();
        let next = |sql: &str, version: Version, tables: &mut Vec<TableMeta>| {
            let p = plan(sql, family, version, tables)?;
            if let Plan::CreateTable { table, .. } = &p {
                tables.push(table.clone());
            }
            Ok(p)
        };
        let init = (case.init.iter().enumerate())
            .map(|(i, s)| next(&s.sql, Version::Init(i), &mut tables))
            .collect::<Result<Vec<_>, _>>()?;
        let steps = (case.steps.iter().enumerate())
            .map(|(i, s)| next(&s.stmt.sql, Version::Step(i), &mut tables))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Plans {
            init,
            steps,
            tables,
        })
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
    ) -> Result<History, InstrumentError> {
        let plans = Plans::of(case, target).map_err(InstrumentError::Unsupported)?;
        let mut rewritten = case.clone();
        for (stmt, p) in rewritten.init.iter_mut().zip(&plans.init) {
            stmt.sql = p.sql(&stmt.sql).to_string();
        }
        for (step, p) in rewritten.steps.iter_mut().zip(&plans.steps) {
            step.stmt.sql = p.sql(&step.stmt.sql).to_string();
        }
        let mut history = self
            .execute(target, &rewritten, isolation)
            .map_err(InstrumentError::Target)?;
        for (outcome, p) in history.init.iter_mut().zip(&plans.init) {
            *outcome = decode(p, std::mem::replace(outcome, Outcome::Ok)).0;
        }
        for (record, p) in history.steps.iter_mut().zip(&plans.steps) {
            let (outcome, accesses) =
                decode(p, std::mem::replace(&mut record.outcome, Outcome::Ok));
            record.outcome = outcome;
            record.accesses = Some(accesses);
        }
        if let Some(state) = history.final_state.take() {
            history.final_state = Some(without_hidden_columns(state, &plans.tables));
        }
        history.tables = plans.tables;
        Ok(history)
    }
}

/// What a statement run by `plan` showed, and the row versions it read and wrote.
fn decode(plan: &Plan, outcome: Outcome) -> (Outcome, Accesses) {
    let mut accesses = Accesses::default();
    let rows = match (plan, outcome) {
        (Plan::Untracked(why), outcome) => {
            accesses.untracked.push(why.clone());
            return (outcome, accesses);
        }
        (Plan::Write { .. } | Plan::Read { .. }, Outcome::Rows { columns, rows }) => {
            (columns, rows)
        }
        (_, outcome) => return (outcome, accesses),
    };
    let (columns, rows) = rows;
    match plan {
        Plan::Write {
            kind,
            table,
            condition,
            untracked,
            ..
        } => {
            let count = rows.len() as u64;
            accesses.writes = rows
                .iter()
                .map(|row| written(*kind, table, &columns, row))
                .collect();
            if *kind != WriteKind::Insert {
                let matched = accesses
                    .writes
                    .iter()
                    .map(|w| Read {
                        row: w.row.clone(),
                        version: w.overwrote,
                    })
                    .collect();
                accesses.predicates.push(Predicate {
                    table: table.clone(),
                    condition: condition.clone(),
                    matched,
                });
            }
            accesses.untracked.extend(untracked.clone());
            (Outcome::Affected { count }, accesses)
        }
        Plan::Read {
            tables,
            condition,
            untracked,
            ..
        } => {
            let index = |name: &str| columns.iter().position(|c| c.eq_ignore_ascii_case(name));
            for (i, table) in tables.iter().enumerate() {
                let (Some(r), Some(v)) = (index(&format!("txh_r{i}")), index(&format!("txh_v{i}")))
                else {
                    continue;
                };
                let matched: Vec<Read> = rows
                    .iter()
                    .filter_map(|row| match row[r] {
                        Value::Int(rid) => Some(Read {
                            row: RowId {
                                table: table.clone(),
                                rid,
                            },
                            version: Version::from_value(&row[v]),
                        }),
                        _ => None,
                    })
                    .collect();
                accesses.reads.extend(matched.iter().cloned());
                accesses.predicates.push(Predicate {
                    table: table.clone(),
                    condition: condition.clone(),
                    matched,
                });
            }
            accesses.untracked.extend(untracked.clone());
            let keep: Vec<usize> = (0..columns.len())
                .filter(|&c| !is_hidden(&columns[c]))
                .collect();
            let outcome = Outcome::Rows {
                columns: keep.iter().map(|&c| columns[c].clone()).collect(),
                rows: rows
                    .iter()
                    .map(|row| keep.iter().map(|&c| row[c].clone()).collect())
                    .collect(),
            };
            (outcome, accesses)
        }
        Plan::Plain | Plan::CreateTable { .. } | Plan::Untracked(_) => {
            unreachable!("only writes and reads return rows here")
        }
    }
}

/// One row of a write's `RETURNING` list (`txh_rid, txh_prev, txh_ver, user columns…`).
fn written(kind: WriteKind, table: &str, columns: &[String], row: &Row) -> Write {
    let rid = match row.first() {
        Some(Value::Int(rid)) => *rid,
        _ => 0,
    };
    let previous = row.get(1).and_then(Version::from_value);
    let current = row.get(2).and_then(Version::from_value);
    // An upsert that updated reports the version it replaced; a plain insert none.
    let (kind, overwrote) = match kind {
        WriteKind::Insert if previous.is_some() => (WriteKind::Update, previous),
        WriteKind::Insert => (WriteKind::Insert, None),
        WriteKind::Update => (WriteKind::Update, previous),
        WriteKind::Delete => (WriteKind::Delete, current),
    };
    Write {
        row: RowId {
            table: table.to_string(),
            rid,
        },
        kind,
        overwrote,
        image: (3..row.len())
            .filter(|&c| !columns.get(c).is_some_and(|name| is_hidden(name)))
            .map(|c| row[c].clone())
            .collect(),
    }
}

/// The final state as the case sees it: instrumented tables without their hidden columns,
/// which instrumentation appended last.
fn without_hidden_columns(state: DbState, tables: &[TableMeta]) -> DbState {
    let mut visible = DbState::new();
    for (name, rows) in state.tables() {
        let hidden = if tables.iter().any(|t| t.name == name) {
            HIDDEN_COLUMNS.len()
        } else {
            0
        };
        let rows = rows
            .iter()
            .map(|row| row[..row.len().saturating_sub(hidden)].to_vec())
            .collect();
        visible.insert(name, rows);
    }
    visible
}
