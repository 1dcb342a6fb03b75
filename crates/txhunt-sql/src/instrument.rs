//! Instrumentation of any statement for read/write histories ([`txhunt_model::access`]),
//! by rewriting its SQL through `sqlparser`.
//!
//! Every table gets the hidden columns [`HIDDEN_COLUMNS`] appended; every write sets a fresh
//! version and remembers the one it overwrote, and reports the rows it wrote through
//! `RETURNING`; a read returns, next to its own columns, the row id and version of each row
//! it joined. So nothing is added to a transaction: no extra statement, no extra read, no
//! extra lock. The write's own `RETURNING` list sees exactly the rows the write chose, after
//! any wait and re-check (PostgreSQL's READ COMMITTED re-evaluation included), and a read's
//! extra columns come from the rows it returned.
//!
//! Supported (SQLite, Turso and PostgreSQL, which all have `RETURNING` on every write):
//! `CREATE TABLE`; `INSERT … VALUES` (with `ON CONFLICT DO NOTHING | DO UPDATE`); single-table
//! `UPDATE` and `DELETE`; `SELECT` over plain tables and joins. Anything else runs as written
//! and is reported untracked, with the reason: aggregates, `DISTINCT`, `GROUP BY` and set
//! operations (their rows are not table rows), `INSERT … SELECT`, `REPLACE` / `INSERT OR
//! REPLACE` (the replaced row's deletion is invisible to `RETURNING`), subqueries (the rows
//! they read), other DDL. MySQL and MariaDB have no `UPDATE … RETURNING`: their
//! instrumentation is not written yet.

use sqlparser::ast::{
    Expr, FromTable, OnConflictAction, OnInsert, Query, SelectItem, SetExpr, Statement,
    TableFactor, TableWithJoins,
};
use sqlparser::dialect::{Dialect, PostgreSqlDialect, SQLiteDialect};
use sqlparser::parser::Parser;
use std::fmt;
use txhunt_model::access::Version;
use txhunt_model::access::{TableMeta, WriteKind, HIDDEN_COLUMNS, PREVIOUS, ROW_ID, VERSION};
use txhunt_model::SqlFamily;

/// How many row ids one statement may hand out: the row id of the `j`-th row an INSERT
/// writes is `version * ROWS_PER_STATEMENT + j`.
pub const ROWS_PER_STATEMENT: i64 = 1 << 20;

/// What to run instead of a statement, and how to read its result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Plan {
    /// Runs as written and touches no rows (BEGIN, COMMIT, SAVEPOINT, CREATE INDEX, …).
    Plain,
    /// A CREATE TABLE with the hidden columns appended.
    CreateTable {
        /// The statement to run.
        sql: String,
        /// The table as the case's statements see it.
        table: TableMeta,
    },
    /// A write whose result set lists every row it wrote: the columns `txh_rid`,
    /// `txh_prev`, `txh_ver`, then the table's user-visible columns.
    Write {
        /// The statement to run.
        sql: String,
        /// Insert, update or delete (an upsert's rows tell insert from update by
        /// `txh_prev`).
        kind: WriteKind,
        /// The table, lower-case.
        table: String,
        /// Its WHERE clause, if any.
        condition: Option<String>,
        /// What it reads that is not tracked (its subqueries' rows), if anything.
        untracked: Option<String>,
    },
    /// A read whose result set has, after its own columns, `txh_r{i}` and `txh_v{i}` (row id
    /// and version) for the `i`-th table it reads.
    Read {
        /// The statement to run.
        sql: String,
        /// The tables it reads, lower-case, in FROM order.
        tables: Vec<String>,
        /// Its WHERE clause, if any.
        condition: Option<String>,
        /// What it reads that is not tracked (its subqueries' rows), if anything.
        untracked: Option<String>,
    },
    /// Runs as written; what it reads or writes is not tracked, for the reason given.
    Untracked(String),
}

impl Plan {
    /// The SQL to run in place of `original`.
    pub fn sql<'a>(&'a self, original: &'a str) -> &'a str {
        match self {
            Plan::Plain | Plan::Untracked(_) => original,
            Plan::CreateTable { sql, .. } | Plan::Write { sql, .. } | Plan::Read { sql, .. } => sql,
        }
    }
}

/// Instrumentation is not written for this SQL family.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsupported(pub SqlFamily);

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "read/write histories are recorded on SQLite, Turso and PostgreSQL so far, not on the {:?} family (it has no UPDATE … RETURNING)",
            self.0
        )
    }
}

impl std::error::Error for Unsupported {}

/// The plan for `sql`, which writes version `version`, given the tables created so far.
pub fn plan(
    sql: &str,
    family: SqlFamily,
    version: Version,
    tables: &[TableMeta],
) -> Result<Plan, Unsupported> {
    let dialect: Box<dyn Dialect> = match family {
        SqlFamily::Sqlite => Box::new(SQLiteDialect {}),
        SqlFamily::Postgres => Box::new(PostgreSqlDialect {}),
        SqlFamily::Mysql => return Err(Unsupported(family)),
    };
    let statements = match Parser::parse_sql(dialect.as_ref(), sql) {
        Ok(statements) => statements,
        Err(e) => return Ok(Plan::Untracked(format!("txhunt cannot parse it: {e}"))),
    };
    let [statement] = statements.as_slice() else {
        return Ok(Plan::Untracked("not exactly one statement".into()));
    };
    let v = version.to_column();
    Ok(match statement.clone() {
        Statement::CreateTable(create) => create_table(create, dialect.as_ref()),
        Statement::Insert(insert) => insert_plan(insert, v, tables, dialect.as_ref()),
        Statement::Update(update) => update_plan(update, v, dialect.as_ref()),
        Statement::Delete(delete) => delete_plan(delete, dialect.as_ref()),
        Statement::Query(query) => read_plan(*query, dialect.as_ref()),
        Statement::StartTransaction { .. }
        | Statement::Commit { .. }
        | Statement::Rollback { .. }
        | Statement::Savepoint { .. }
        | Statement::ReleaseSavepoint { .. }
        | Statement::CreateIndex(_)
        | Statement::Set(_) => Plan::Plain,
        other => Plan::Untracked(format!(
            "instrumentation does not know what `{}` reads or writes",
            first_words(&other.to_string())
        )),
    })
}

fn first_words(sql: &str) -> String {
    sql.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
}

/// Parses a fragment of SQL that txhunt writes itself (it always parses).
fn parse_one(dialect: &dyn Dialect, sql: &str) -> Statement {
    Parser::parse_sql(dialect, sql)
        .ok()
        .and_then(|mut s| s.pop())
        .unwrap_or_else(|| panic!("txhunt's own SQL does not parse: {sql}"))
}

/// The `RETURNING` list of a write: row id, overwritten version, version, user columns.
fn returning(dialect: &dyn Dialect, columns: &[String]) -> Vec<SelectItem> {
    let list = [ROW_ID, PREVIOUS, VERSION]
        .iter()
        .map(|c| c.to_string())
        .chain(columns.iter().cloned())
        .collect::<Vec<_>>()
        .join(", ");
    match parse_one(dialect, &format!("DELETE FROM x RETURNING {list}")) {
        Statement::Delete(d) => d.returning.unwrap_or_default(),
        _ => unreachable!("a DELETE parses as a DELETE"),
    }
}

/// The assignments every update adds first: `txh_prev = txh_ver, txh_ver = v`.
fn version_assignments(dialect: &dyn Dialect, v: i64) -> Vec<sqlparser::ast::Assignment> {
    match parse_one(
        dialect,
        &format!("UPDATE x SET {PREVIOUS} = {VERSION}, {VERSION} = {v}"),
    ) {
        Statement::Update(u) => u.assignments,
        _ => unreachable!("an UPDATE parses as an UPDATE"),
    }
}

fn create_table(mut create: sqlparser::ast::CreateTable, dialect: &dyn Dialect) -> Plan {
    if create.query.is_some() {
        return Plan::Untracked("CREATE TABLE … AS SELECT".into());
    }
    let name = create.name.to_string().to_ascii_lowercase();
    let columns: Vec<String> = create
        .columns
        .iter()
        .map(|c| c.name.value.clone())
        .collect();
    let mut key: Vec<String> = create
        .columns
        .iter()
        .filter(|c| {
            c.options
                .iter()
                .any(|o| matches!(o.option, sqlparser::ast::ColumnOption::PrimaryKey(_)))
        })
        .map(|c| c.name.value.clone())
        .collect();
    for constraint in &create.constraints {
        if let sqlparser::ast::TableConstraint::PrimaryKey(pk) = constraint {
            key.extend(pk.columns.iter().map(|c| c.column.expr.to_string()));
        }
    }
    let hidden = HIDDEN_COLUMNS
        .iter()
        .map(|c| format!("{c} BIGINT"))
        .collect::<Vec<_>>()
        .join(", ");
    let Statement::CreateTable(extra) = parse_one(dialect, &format!("CREATE TABLE x ({hidden})"))
    else {
        unreachable!("a CREATE TABLE parses as a CREATE TABLE")
    };
    create.columns.extend(extra.columns);
    Plan::CreateTable {
        sql: Statement::CreateTable(create).to_string(),
        table: TableMeta { name, columns, key },
    }
}

fn insert_plan(
    mut insert: sqlparser::ast::Insert,
    v: i64,
    tables: &[TableMeta],
    dialect: &dyn Dialect,
) -> Plan {
    let name = insert.table.to_string().to_ascii_lowercase();
    let Some(meta) = tables.iter().find(|t| t.name == name) else {
        return Plan::Untracked(format!("table {name} was not created by the case"));
    };
    if insert.replace_into || insert.or.is_some() {
        return Plan::Untracked("a replacing INSERT deletes rows RETURNING does not show".into());
    }
    if insert.returning.is_some() {
        return Plan::Untracked("the INSERT has a RETURNING list of its own".into());
    }
    let Some(source) = insert.source.as_mut() else {
        return Plan::Untracked("INSERT without VALUES".into());
    };
    let SetExpr::Values(values) = source.body.as_mut() else {
        return Plan::Untracked("INSERT … SELECT: its rows' ids cannot be given".into());
    };
    if insert.columns.is_empty() {
        let Statement::Insert(named) = parse_one(
            dialect,
            &format!("INSERT INTO x ({}) VALUES (1)", meta.columns.join(", ")),
        ) else {
            unreachable!("an INSERT parses as an INSERT")
        };
        insert.columns = named.columns;
    }
    let Statement::Insert(hidden) = parse_one(
        dialect,
        &format!("INSERT INTO x ({ROW_ID}, {VERSION}, {PREVIOUS}) VALUES (1, 1, 1)"),
    ) else {
        unreachable!("an INSERT parses as an INSERT")
    };
    insert.columns.extend(hidden.columns);
    let untracked = values
        .rows
        .iter()
        .any(|row| row.iter().any(|e| has_subquery(Some(e))))
        .then(subquery_reads);
    for (j, row) in values.rows.iter_mut().enumerate() {
        let rid = v * ROWS_PER_STATEMENT + j as i64;
        row.extend([
            number(rid),
            number(v),
            Expr::value(sqlparser::ast::Value::Null),
        ]);
    }
    match insert.on.as_mut() {
        None => {}
        Some(OnInsert::OnConflict(conflict)) => {
            if let OnConflictAction::DoUpdate(update) = &mut conflict.action {
                let mut assignments = version_assignments(dialect, v);
                assignments.append(&mut update.assignments);
                update.assignments = assignments;
            }
        }
        Some(_) => return Plan::Untracked("ON DUPLICATE KEY UPDATE".into()),
    }
    insert.returning = Some(returning(dialect, &meta.columns));
    Plan::Write {
        sql: Statement::Insert(insert).to_string(),
        kind: WriteKind::Insert,
        table: name,
        condition: None,
        untracked,
    }
}

fn number(n: i64) -> Expr {
    Expr::value(sqlparser::ast::Value::Number(n.to_string(), false))
}

fn update_plan(mut update: sqlparser::ast::Update, v: i64, dialect: &dyn Dialect) -> Plan {
    let TableFactor::Table { name, .. } = &update.table.relation else {
        return Plan::Untracked("UPDATE of something other than a table".into());
    };
    let name = name.to_string().to_ascii_lowercase();
    if update.from.is_some() || !update.table.joins.is_empty() || update.returning.is_some() {
        return Plan::Untracked("UPDATE with FROM, joins or RETURNING of its own".into());
    }
    let untracked = (has_subquery(update.selection.as_ref())
        || update
            .assignments
            .iter()
            .any(|a| has_subquery(Some(&a.value))))
    .then(subquery_reads);
    let mut assignments = version_assignments(dialect, v);
    assignments.append(&mut update.assignments);
    update.assignments = assignments;
    update.returning = Some(returning(dialect, &[String::from("*")]));
    Plan::Write {
        condition: update.selection.as_ref().map(ToString::to_string),
        sql: Statement::Update(update).to_string(),
        kind: WriteKind::Update,
        table: name,
        untracked,
    }
}

fn delete_plan(mut delete: sqlparser::ast::Delete, dialect: &dyn Dialect) -> Plan {
    let from = match &delete.from {
        FromTable::WithFromKeyword(t) | FromTable::WithoutKeyword(t) => t,
    };
    let [TableWithJoins {
        relation: TableFactor::Table { name, .. },
        joins,
    }] = from.as_slice()
    else {
        return Plan::Untracked("DELETE from several tables".into());
    };
    if !joins.is_empty() || delete.using.is_some() || delete.returning.is_some() {
        return Plan::Untracked("DELETE with joins, USING or RETURNING of its own".into());
    }
    let untracked = has_subquery(delete.selection.as_ref()).then(subquery_reads);
    let name = name.to_string().to_ascii_lowercase();
    delete.returning = Some(returning(dialect, &[String::from("*")]));
    Plan::Write {
        condition: delete.selection.as_ref().map(ToString::to_string),
        sql: Statement::Delete(delete).to_string(),
        kind: WriteKind::Delete,
        table: name,
        untracked,
    }
}

fn read_plan(mut query: Query, dialect: &dyn Dialect) -> Plan {
    if query.with.is_some() {
        return Plan::Untracked("a query with WITH".into());
    }
    let SetExpr::Select(select) = query.body.as_mut() else {
        return Plan::Untracked("a set operation or VALUES: its rows are not table rows".into());
    };
    let aggregate = select.projection.iter().any(|item| match item {
        SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => is_aggregate(e),
        _ => false,
    });
    let grouped = !matches!(
        select.group_by,
        sqlparser::ast::GroupByExpr::Expressions(ref e, _) if e.is_empty()
    );
    if aggregate || grouped || select.having.is_some() || select.distinct.is_some() {
        return Plan::Untracked(
            "an aggregate, DISTINCT or GROUP BY: its rows are not table rows".into(),
        );
    }
    let mut tables = Vec::new();
    let mut qualifiers = Vec::new();
    for factor in select
        .from
        .iter()
        .flat_map(|t| std::iter::once(&t.relation).chain(t.joins.iter().map(|j| &j.relation)))
    {
        let TableFactor::Table { name, alias, .. } = factor else {
            return Plan::Untracked("a read from a derived table or function".into());
        };
        tables.push(name.to_string().to_ascii_lowercase());
        qualifiers.push(
            alias
                .as_ref()
                .map_or_else(|| name.to_string(), |a| a.name.to_string()),
        );
    }
    if tables.is_empty() {
        return Plan::Plain;
    }
    let extra = qualifiers
        .iter()
        .enumerate()
        .map(|(i, q)| format!("{q}.{ROW_ID} AS txh_r{i}, {q}.{VERSION} AS txh_v{i}"))
        .collect::<Vec<_>>()
        .join(", ");
    let Statement::Query(items) = parse_one(dialect, &format!("SELECT {extra}")) else {
        unreachable!("a SELECT parses as a query")
    };
    let SetExpr::Select(items) = *items.body else {
        unreachable!("a SELECT is a select")
    };
    select.projection.extend(items.projection);
    let untracked = (has_subquery(select.selection.as_ref())
        || select.projection.iter().any(|item| match item {
            SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => {
                has_subquery(Some(e))
            }
            _ => false,
        }))
    .then(subquery_reads);
    Plan::Read {
        condition: select.selection.as_ref().map(ToString::to_string),
        sql: Statement::Query(Box::new(query)).to_string(),
        tables,
        untracked,
    }
}

/// Whether `e` calls an aggregate function (at its top or inside).
fn is_aggregate(e: &Expr) -> bool {
    const AGGREGATES: [&str; 7] = ["count", "sum", "min", "max", "avg", "total", "group_concat"];
    let text = e.to_string().to_ascii_lowercase();
    AGGREGATES.iter().any(|a| text.contains(&format!("{a}(")))
}

fn subquery_reads() -> String {
    "the rows its subqueries read".into()
}

/// Whether `e` contains a subquery (IN, EXISTS, scalar).
fn has_subquery(e: Option<&Expr>) -> bool {
    e.is_some_and(|e| e.to_string().to_ascii_uppercase().contains("SELECT "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use txhunt_model::SqlFamily::{Mysql, Postgres, Sqlite};

    fn meta() -> Vec<TableMeta> {
        vec![TableMeta {
            name: "t".into(),
            columns: vec!["k".into(), "v".into()],
            key: vec!["k".into()],
        }]
    }

    fn sql(p: &Plan) -> &str {
        p.sql("")
    }

    #[test]
    fn create_table_appends_the_hidden_columns_and_knows_the_key() {
        let p = plan(
            "CREATE TABLE t(k INT PRIMARY KEY, v INT)",
            Sqlite,
            Version::Init(0),
            &[],
        )
        .unwrap();
        assert_eq!(
            sql(&p),
            "CREATE TABLE t (k INT PRIMARY KEY, v INT, txh_rid BIGINT, txh_ver BIGINT, txh_prev BIGINT)"
        );
        let Plan::CreateTable { table, .. } = p else {
            panic!("{p:?}")
        };
        assert_eq!(table, meta()[0]);
    }

    #[test]
    fn writes_set_versions_and_return_their_rows() {
        let insert = plan(
            "INSERT INTO t VALUES (1, 10), (2, 20)",
            Postgres,
            Version::Step(2),
            &meta(),
        )
        .unwrap();
        assert_eq!(
            sql(&insert),
            "INSERT INTO t (k, v, txh_rid, txh_ver, txh_prev) VALUES (1, 10, 3145728, 3, NULL), (2, 20, 3145729, 3, NULL) RETURNING txh_rid, txh_prev, txh_ver, k, v"
        );
        let update = plan(
            "UPDATE t SET v = v + 1 WHERE k = 1",
            Sqlite,
            Version::Step(4),
            &meta(),
        )
        .unwrap();
        assert_eq!(
            sql(&update),
            "UPDATE t SET txh_prev = txh_ver, txh_ver = 5, v = v + 1 WHERE k = 1 RETURNING txh_rid, txh_prev, txh_ver, *"
        );
        let delete = plan(
            "DELETE FROM t WHERE v > 3",
            Sqlite,
            Version::Step(5),
            &meta(),
        )
        .unwrap();
        assert_eq!(
            sql(&delete),
            "DELETE FROM t WHERE v > 3 RETURNING txh_rid, txh_prev, txh_ver, *"
        );
    }

    #[test]
    fn reads_return_row_ids_and_versions_of_every_table() {
        let p = plan(
            "SELECT a.v, b.v FROM t AS a JOIN t AS b ON a.k = b.v WHERE a.k > 0",
            Postgres,
            Version::Step(0),
            &meta(),
        )
        .unwrap();
        assert_eq!(
            sql(&p),
            "SELECT a.v, b.v, a.txh_rid AS txh_r0, a.txh_ver AS txh_v0, b.txh_rid AS txh_r1, b.txh_ver AS txh_v1 FROM t AS a JOIN t AS b ON a.k = b.v WHERE a.k > 0"
        );
    }

    #[test]
    fn what_cannot_be_tracked_says_why() {
        let untracked = |s: &str| match plan(s, Sqlite, Version::Step(0), &meta()).unwrap() {
            Plan::Untracked(why) => why,
            other => panic!("{s}: {other:?}"),
        };
        assert!(untracked("SELECT count(*) FROM t").contains("aggregate"));
        assert!(untracked("INSERT INTO t SELECT * FROM t").contains("INSERT … SELECT"));
        let Plan::Write { untracked, .. } = plan(
            "UPDATE t SET v = (SELECT max(v) FROM t)",
            Sqlite,
            Version::Step(0),
            &meta(),
        )
        .unwrap() else {
            panic!("a write")
        };
        assert_eq!(untracked.as_deref(), Some("the rows its subqueries read"));
        assert_eq!(
            plan("BEGIN", Sqlite, Version::Step(0), &[]).unwrap(),
            Plan::Plain
        );
        assert_eq!(
            plan("SELECT 1", Mysql, Version::Step(0), &[]),
            Err(Unsupported(Mysql))
        );
    }
}
