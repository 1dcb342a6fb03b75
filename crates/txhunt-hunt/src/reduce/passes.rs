//! The reducer's passes: what each one cuts or simplifies, as a list of parts that delta
//! debugging keeps or drops.

use txhunt_model::{SqlFamily, Stmt, StmtKind, TestCase};
use txhunt_sql::simplify::{self, Column};

/// What one round of delta debugging works on, in the order the reducer runs them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Pass {
    /// Whole transactions (an autocommit statement is one).
    Transactions,
    /// Data statements; BEGIN, COMMIT and ROLLBACK stay.
    Statements,
    /// Explicit transactions ended by COMMIT (or not ended): a dropped part is one whose
    /// BEGIN and COMMIT go, its statements then each committing on its own.
    Autocommit,
    /// The rows of the setup's multi-row INSERTs.
    Rows,
    /// Tables: each with every setup statement that names it (its indexes, its rows).
    Tables,
    /// Setup statements one by one (indexes, the rest).
    Setup,
    /// Columns no step but an INSERT names: each with its definition, constraints, indexes
    /// and values (in the setup's rows and the steps' INSERTs).
    Columns,
    /// Literal values: a dropped part is a literal replaced by its simple value (small
    /// numbers and short strings keeping the order and equalities of the originals, NULLs in
    /// inserted rows as a value of their column's type).
    Literals,
}

impl Pass {
    /// Every delta-debugging pass, in order (expressions and renaming are tried one by one
    /// by the reducer, between [`Pass::Columns`] and [`Pass::Literals`] and after all).
    pub(super) const ALL: [Pass; 8] = [
        Pass::Transactions,
        Pass::Statements,
        Pass::Autocommit,
        Pass::Rows,
        Pass::Tables,
        Pass::Setup,
        Pass::Columns,
        Pass::Literals,
    ];

    /// The pass's name in the reduction log.
    pub(super) fn name(self) -> &'static str {
        match self {
            Pass::Transactions => "transactions",
            Pass::Statements => "statements",
            Pass::Autocommit => "autocommit",
            Pass::Rows => "rows",
            Pass::Tables => "tables",
            Pass::Setup => "setup",
            Pass::Columns => "columns",
            Pass::Literals => "literals",
        }
    }

    /// How many parts of this kind `case` has.
    pub(super) fn parts(self, case: &TestCase, family: SqlFamily) -> usize {
        match self {
            Pass::Transactions => case.txns().len(),
            Pass::Statements => data_steps(case).len(),
            Pass::Autocommit => wrappers(case).len(),
            Pass::Rows => (case.init.iter())
                .map(|s| simplify::insert_rows(&s.sql, family).unwrap_or(0))
                .sum(),
            Pass::Tables => tables(case, family).len(),
            Pass::Setup => case.init.len(),
            Pass::Columns => unnamed_columns(case, family).len(),
            Pass::Literals => simplify::literal_sites(&texts(case), family),
        }
    }

    /// `case` with only the parts `keep` marks; `None` when no such case can be written.
    pub(super) fn cut(self, case: &TestCase, family: SqlFamily, keep: &[bool]) -> Option<TestCase> {
        let mut cut = case.clone();
        match self {
            Pass::Transactions => {
                let txns = case.txns();
                let kept: Vec<usize> = (txns.iter().zip(keep))
                    .filter(|(_, k)| **k)
                    .flat_map(|(t, _)| t.steps.iter().copied())
                    .collect();
                cut.steps = only(&case.steps, |i| kept.contains(&i));
            }
            Pass::Statements => {
                let data = data_steps(case);
                cut.steps = only(&case.steps, |i| {
                    data.iter().position(|&d| d == i).is_none_or(|k| keep[k])
                });
            }
            Pass::Autocommit => {
                let unwrapped: Vec<usize> = (wrappers(case).into_iter().zip(keep))
                    .filter(|(_, k)| !**k)
                    .flat_map(|(w, _)| w)
                    .collect();
                cut.steps = only(&case.steps, |i| !unwrapped.contains(&i));
            }
            Pass::Rows => {
                let mut from = 0;
                cut.init = Vec::new();
                for stmt in &case.init {
                    let Some(rows) = simplify::insert_rows(&stmt.sql, family) else {
                        cut.init.push(stmt.clone());
                        continue;
                    };
                    let mask = &keep[from..from + rows];
                    from += rows;
                    if let Some(sql) = simplify::keep_insert_rows(&stmt.sql, family, mask) {
                        cut.init.push(Stmt {
                            sql,
                            ..stmt.clone()
                        });
                    }
                }
            }
            Pass::Tables => {
                let tables = tables(case, family);
                let dropped: Vec<&String> = (tables.iter().zip(keep))
                    .filter(|(_, k)| !**k)
                    .map(|(t, _)| t)
                    .collect();
                cut.init = only(&case.init, |i| {
                    !dropped.iter().any(|t| names(&case.init[i].sql, t))
                });
            }
            Pass::Setup => cut.init = only(&case.init, |i| keep[i]),
            Pass::Columns => {
                let dropped: Vec<Column> = (unnamed_columns(case, family).into_iter())
                    .zip(keep)
                    .filter(|(_, k)| !**k)
                    .map(|(c, _)| c)
                    .collect();
                if !dropped.is_empty() {
                    let init: Vec<String> = case.init.iter().map(|s| s.sql.clone()).collect();
                    cut.init = simplify::drop_columns(&init, family, &dropped)?
                        .into_iter()
                        .map(Stmt::new)
                        .collect();
                    // The steps' INSERTs lose the columns too, read against the tables' CREATE
                    // TABLEs (for INSERTs without a column list).
                    let creates: Vec<String> = (init.iter())
                        .filter(|sql| {
                            !simplify::table_columns(&[sql.to_string()], family).is_empty()
                        })
                        .cloned()
                        .collect();
                    let inserts: Vec<usize> = (0..case.steps.len())
                        .filter(|&i| case.steps[i].stmt.kind() == StmtKind::Insert)
                        .collect();
                    let texts: Vec<String> = (creates.iter().cloned())
                        .chain(inserts.iter().map(|&i| case.steps[i].stmt.sql.clone()))
                        .collect();
                    let rewritten = simplify::drop_columns(&texts, family, &dropped)?;
                    if rewritten.len() != texts.len() {
                        return None;
                    }
                    for (&i, sql) in inserts.iter().zip(&rewritten[creates.len()..]) {
                        cut.steps[i].stmt.sql = sql.clone();
                    }
                }
            }
            Pass::Literals => {
                let replace: Vec<bool> = keep.iter().map(|k| !k).collect();
                let texts = simplify::simplify_literals(&texts(case), family, &replace);
                with_texts(&mut cut, texts);
            }
        }
        Some(cut)
    }
}

/// The SQL of every statement of `case`, setup first.
pub(super) fn texts(case: &TestCase) -> Vec<String> {
    (case.init.iter())
        .chain(case.steps.iter().map(|s| &s.stmt))
        .map(|s| s.sql.clone())
        .collect()
}

/// Puts `texts` (as [`texts`] lists them) back into `case`.
pub(super) fn with_texts(case: &mut TestCase, texts: Vec<String>) {
    let stmts = (case.init.iter_mut()).chain(case.steps.iter_mut().map(|s| &mut s.stmt));
    for (stmt, sql) in stmts.zip(texts) {
        stmt.sql = sql;
    }
}

/// The steps of `case` that are not BEGIN, COMMIT or ROLLBACK.
pub(super) fn data_steps(case: &TestCase) -> Vec<usize> {
    (0..case.steps.len())
        .filter(|&i| {
            !matches!(
                case.steps[i].stmt.kind(),
                StmtKind::Begin | StmtKind::Commit | StmtKind::Rollback
            )
        })
        .collect()
}

/// Of each explicit transaction without ROLLBACK or savepoints, the steps that make it one:
/// its BEGIN and its COMMIT (if it has one).
fn wrappers(case: &TestCase) -> Vec<Vec<usize>> {
    (case.txns().into_iter())
        .filter(|t| t.explicit)
        .filter_map(|t| {
            let kinds: Vec<StmtKind> = t.steps.iter().map(|&i| case.steps[i].stmt.kind()).collect();
            // Savepoints and ROLLBACK mean nothing outside a transaction.
            let plain = !kinds.iter().any(|k| {
                matches!(
                    k,
                    StmtKind::Rollback
                        | StmtKind::Savepoint
                        | StmtKind::RollbackTo
                        | StmtKind::Release
                )
            });
            plain.then(|| {
                (t.steps.iter().zip(&kinds))
                    .filter(|(_, k)| matches!(k, StmtKind::Begin | StmtKind::Commit))
                    .map(|(&i, _)| i)
                    .collect()
            })
        })
        .collect()
}

/// The tables the setup creates, in order.
fn tables(case: &TestCase, family: SqlFamily) -> Vec<String> {
    let init: Vec<String> = case.init.iter().map(|s| s.sql.clone()).collect();
    let mut tables: Vec<String> = Vec::new();
    for column in simplify::table_columns(&init, family) {
        if !tables.contains(&column.table) {
            tables.push(column.table);
        }
    }
    tables
}

/// The setup's columns that no step but an INSERT names (a step reading or writing one by
/// name needs it; an INSERT can do without it).
fn unnamed_columns(case: &TestCase, family: SqlFamily) -> Vec<Column> {
    let init: Vec<String> = case.init.iter().map(|s| s.sql.clone()).collect();
    let naming = (case.steps.iter()).filter(|s| s.stmt.kind() != StmtKind::Insert);
    let named: Vec<&str> = naming.map(|s| s.stmt.sql.as_str()).collect();
    simplify::table_columns(&init, family)
        .into_iter()
        .filter(|c| !named.iter().any(|sql| names(sql, &c.name)))
        .collect()
}

/// Whether `sql` has `name` as a word (in any case): whether it may name that table or
/// column.
fn names(sql: &str, name: &str) -> bool {
    sql.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| w.eq_ignore_ascii_case(name))
}

/// The items of `all` whose index `keep` accepts.
fn only<T: Clone>(all: &[T], keep: impl Fn(usize) -> bool) -> Vec<T> {
    (all.iter().enumerate())
        .filter(|(i, _)| keep(*i))
        .map(|(_, x)| x.clone())
        .collect()
}
