//! Instrumentation of any statement for read/write histories ([`txhunt_model::access`]),
//! by rewriting its SQL through `sqlparser`.
//!
//! Every table gets the hidden columns [`HIDDEN_COLUMNS`] appended; every write sets a fresh
//! version and remembers the one it overwrote, and reports the rows it wrote; a read returns,
//! next to its own columns, the row id and version of each row it joined. No statement reads
//! a table it would not have read, and none takes a lock it would not have taken:
//!
//! * SQLite, Turso and PostgreSQL report a write's rows through its own `RETURNING` list,
//!   which sees exactly the rows the write chose, after any wait and re-check (PostgreSQL's
//!   READ COMMITTED re-evaluation included);
//! * MySQL and MariaDB have no `UPDATE … RETURNING`: each table gets row triggers (after
//!   insert, update, delete) that append the row to a session variable, `@txh_log`, and a
//!   write ends with [`TRIGGER_LOG`] so that the executor reads and clears that variable
//!   right after it (`SELECT @txh_log` reads no table: no lock, no snapshot; a stress
//!   session reads it only every few transactions, splitting it by the versions the rows
//!   carry). Because every
//!   update now changes the version column, InnoDB would count rows an UPDATE set to their
//!   current values as changed; the triggers log whether the user-visible columns changed so
//!   that the executor reports the count a plain run gets (`ON DUPLICATE KEY UPDATE`: 1 per
//!   insert, 2 per changed row, 0 per unchanged one).
//!
//! A read's extra columns come from the rows it returned: at SERIALIZABLE InnoDB locks the
//! same rows either way.
//!
//! Supported: `CREATE TABLE`; `INSERT … VALUES` (with `ON CONFLICT DO NOTHING | DO UPDATE`,
//! `ON DUPLICATE KEY UPDATE`, `INSERT IGNORE`); single-table `UPDATE` and `DELETE`; `SELECT`
//! over plain tables and joins; aggregates, `DISTINCT`, `GROUP BY` and subqueries through
//! [`VersionSet`] reads where those are allowed. Anything else runs as written and is reported
//! untracked, with the reason: set operations, `WITH`, derived tables, `INSERT … SELECT`,
//! `REPLACE` / `INSERT OR REPLACE` (the replaced row's deletion is not reported alike
//! everywhere), other DDL, and, on MySQL/MariaDB, tables created inside a transaction's steps
//! (their triggers would be DDL inside the transaction). An untracked write runs as written and
//! leaves the hidden columns of the rows it creates NULL; nothing the case reads depends on
//! them, but a MariaDB `REPLACE` reports its affected-row count over the whole row, hidden
//! columns included, so that count may differ from a plain run's.

mod altered;

pub use altered::follow_column_changes;
use sqlparser::ast::{
    Expr, FromTable, OnConflictAction, OnInsert, Query, SelectItem, SetExpr, Statement,
    TableFactor, TableWithJoins,
};
use sqlparser::dialect::{Dialect, MySqlDialect, PostgreSqlDialect, SQLiteDialect};
use sqlparser::parser::Parser;
use txhunt_model::access::Version;
use txhunt_model::access::{TableMeta, WriteKind, HIDDEN_COLUMNS, PREVIOUS, ROW_ID, VERSION};
use txhunt_model::{SqlFamily, StmtKind};

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
        /// Setup statements to run right after it (MySQL/MariaDB: the trigger-log triggers).
        then: Vec<String>,
    },
    /// A write whose result set lists every row it wrote: the columns `txh_rid`,
    /// `txh_prev`, `txh_ver`, then the table's user-visible columns (through `RETURNING`, or,
    /// on MySQL/MariaDB, from the trigger log, with a last column `txh_weight`: what the row
    /// adds to the affected-row count).
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
        /// The version sets read right after it (the tables its subqueries read).
        version_sets: Vec<VersionSet>,
        /// What it reads that is not tracked (its subqueries' rows), if anything.
        untracked: Option<String>,
    },
    /// A read whose result set has, after its own columns, `txh_r{i}` and `txh_v{i}` (row id
    /// and version) for the `i`-th table it reads.
    Read {
        /// The statement to run.
        sql: String,
        /// The tables whose rows it returns, lower-case, in FROM order (none for an aggregate:
        /// its [`VersionSet`] reads them).
        tables: Vec<String>,
        /// Its WHERE clause, if any.
        condition: Option<String>,
        /// The version sets read right after it (an aggregate's rows, its subqueries' tables).
        version_sets: Vec<VersionSet>,
        /// What it reads that is not tracked (its subqueries' rows), if anything.
        untracked: Option<String>,
    },
    /// Runs as written; what it reads or writes is not tracked, for the reason given.
    Untracked(String),
}

impl Plan {
    /// The version-set reads to run right after the statement (none for most).
    pub fn version_sets(&self) -> &[VersionSet] {
        match self {
            Plan::Read { version_sets, .. } | Plan::Write { version_sets, .. } => version_sets,
            _ => &[],
        }
    }

    /// The SQL to run in place of `original`.
    pub fn sql<'a>(&'a self, original: &'a str) -> &'a str {
        match self {
            Plan::Plain | Plan::Untracked(_) => original,
            Plan::CreateTable { sql, .. } | Plan::Write { sql, .. } | Plan::Read { sql, .. } => sql,
        }
    }

    /// The table and the row events of it whose rows this statement's record needs from the
    /// trigger log (MySQL family): a tracked write's own kind, and an upsert's update too (an
    /// `ON DUPLICATE KEY UPDATE` anywhere in its text counts, which may only add one).
    pub fn logged_events(&self) -> Vec<(&str, WriteKind)> {
        let Plan::Write {
            sql, kind, table, ..
        } = self
        else {
            return Vec::new();
        };
        let mut events = vec![(table.as_str(), *kind)];
        if *kind == WriteKind::Insert && sql.contains("ON DUPLICATE KEY UPDATE") {
            events.push((table.as_str(), WriteKind::Update));
        }
        events
    }
}

/// The row event a logging trigger of [`Plan::CreateTable`]'s `then` logs, if `sql` creates
/// one.
pub fn log_trigger_event(sql: &str) -> Option<WriteKind> {
    [WriteKind::Insert, WriteKind::Update, WriteKind::Delete]
        .into_iter()
        .find(|kind| sql.starts_with(&format!("CREATE TRIGGER {}", trigger_prefix(*kind))))
}

/// The start of the name of a logging trigger of `kind`.
fn trigger_prefix(kind: WriteKind) -> &'static str {
    match kind {
        WriteKind::Insert => "txh_ai_",
        WriteKind::Update => "txh_au_",
        WriteKind::Delete => "txh_ad_",
    }
}

/// A version-set read (paper 002 §3.2's VSR): a SELECT of the row ids and versions
/// (`txh_r{i}`, `txh_v{i}` for its `i`-th table) of the rows a statement read but cannot
/// return itself: an aggregate's matched rows (same FROM and WHERE), every row of a table a
/// subquery reads. It runs right after the statement, in its transaction, only where a plain
/// read changes nothing the case could notice: never at SERIALIZABLE on PostgreSQL (SSI would
/// track the extra read) or InnoDB (it would lock). At READ COMMITTED it reads a snapshot of
/// its own, taken right after the statement's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionSet {
    /// The SELECT.
    pub sql: String,
    /// The tables it reads, lower-case.
    pub tables: Vec<String>,
    /// The statement's WHERE clause it applies, if any (`None`: every row).
    pub condition: Option<String>,
}

/// The comment a statement with version sets carries, with its version: the executor runs
/// the statement's [`VersionSet`]s right after it.
pub fn version_sets_marker(version: i64) -> String {
    format!("{VERSION_SETS_MARK}{version} */")
}

/// The version a statement's [`version_sets_marker`] names, if it carries one.
pub fn marked_version(sql: &str) -> Option<i64> {
    let (_, rest) = sql.split_once(VERSION_SETS_MARK)?;
    rest.split_once(" */")?.0.parse().ok()
}

const VERSION_SETS_MARK: &str = "/* txhunt: version sets ";

/// The comment a MySQL/MariaDB write ends with: read and clear `@txh_log` after it.
pub const TRIGGER_LOG: &str = "/* txhunt: trigger log */";

/// The variable the MySQL/MariaDB triggers append written rows to: each row a JSON array
/// followed by a comma (appending never re-reads the log).
pub const LOG_VARIABLE: &str = "@txh_log";

/// The variable that says the log was read ([`LOG_VARIABLE`]): the next row logged starts it
/// anew, so that one statement can read the log and have it cleared (`SELECT @txh_log,
/// @txh_taken := 1`; a statement must not read and set the same variable).
pub const LOG_TAKEN: &str = "@txh_taken";

/// A family's dialect, and how its writes report their rows.
struct Sql {
    dialect: Box<dyn Dialect>,
    /// Writes report through `RETURNING` (else through the trigger log).
    returning: bool,
    /// The family, for reading statements' table names.
    family: SqlFamily,
    /// Whether a [`VersionSet`] may run.
    extra_reads: bool,
}

impl Sql {
    fn of(family: SqlFamily) -> Sql {
        match family {
            SqlFamily::Sqlite => Sql {
                dialect: Box::new(SQLiteDialect {}),
                returning: true,
                family,
                extra_reads: false,
            },
            SqlFamily::Postgres => Sql {
                dialect: Box::new(PostgreSqlDialect {}),
                returning: true,
                family,
                extra_reads: false,
            },
            SqlFamily::Mysql => Sql {
                dialect: Box::new(MySqlDialect {}),
                returning: false,
                family,
                extra_reads: false,
            },
        }
    }

    /// Parses a fragment of SQL that txhunt writes itself (it always parses).
    fn parse_one(&self, sql: &str) -> Statement {
        Parser::parse_sql(self.dialect.as_ref(), sql)
            .ok()
            .and_then(|mut s| s.pop())
            .unwrap_or_else(|| panic!("txhunt's own SQL does not parse: {sql}"))
    }

    /// The `RETURNING` list of a write (row id, overwritten version, version, then
    /// `columns`), where the family reports through `RETURNING`.
    fn returning(&self, columns: &[String]) -> Option<Vec<SelectItem>> {
        if !self.returning {
            return None;
        }
        let list = [ROW_ID, PREVIOUS, VERSION]
            .iter()
            .map(|c| c.to_string())
            .chain(columns.iter().cloned())
            .collect::<Vec<_>>()
            .join(", ");
        match self.parse_one(&format!("DELETE FROM x RETURNING {list}")) {
            Statement::Delete(d) => d.returning,
            _ => unreachable!("a DELETE parses as a DELETE"),
        }
    }

    /// A write's SQL: as rendered, and marked for the trigger log where there is one.
    fn write(&self, statement: Statement) -> String {
        if self.returning {
            statement.to_string()
        } else {
            format!("{statement} {TRIGGER_LOG}")
        }
    }

    /// The assignments every update adds first: `txh_prev = txh_ver, txh_ver = v` (MySQL
    /// assigns left to right, so `txh_prev` gets the old version there too). The old version
    /// is read as `qualifier.txh_ver` when given (an upsert's update, where PostgreSQL would
    /// find `txh_ver` ambiguous between the row and `excluded`).
    fn version_assignments(
        &self,
        v: i64,
        qualifier: Option<&str>,
    ) -> Vec<sqlparser::ast::Assignment> {
        let old = qualifier.map_or(VERSION.to_string(), |q| format!("{q}.{VERSION}"));
        match self.parse_one(&format!("UPDATE x SET {PREVIOUS} = {old}, {VERSION} = {v}")) {
            Statement::Update(u) => u.assignments,
            _ => unreachable!("an UPDATE parses as an UPDATE"),
        }
    }

    /// The version sets of the instrumented tables `statement` names besides `own` (those its
    /// subqueries read: every row of each), and of `own` tables its subqueries read too (read
    /// after the statement, its own new versions stand for the ones it replaced: see the
    /// executor's decoding); what stays untracked: the subqueries' rows where extra reads are
    /// not allowed or a table is not instrumented.
    fn subquery_sets(
        &self,
        statement: &str,
        own: &[String],
        known: &[TableMeta],
    ) -> (Vec<VersionSet>, Option<String>) {
        let named = crate::analysis::named_tables(statement, self.family);
        let nested: Vec<String> = named.nested.iter().map(|t| table_key(t)).collect();
        let others: Vec<String> = (named.all.iter())
            .map(|t| table_key(t))
            .filter(|t| !own.contains(t) || nested.contains(t))
            .collect();
        if others.is_empty() {
            return (Vec::new(), None);
        }
        let tracked = self.extra_reads && others.iter().all(|t| known.iter().any(|k| &k.name == t));
        if !tracked {
            return (Vec::new(), Some(subquery_reads()));
        }
        let sets = others
            .into_iter()
            .map(|t| VersionSet {
                sql: format!("SELECT {ROW_ID} AS txh_r0, {VERSION} AS txh_v0 FROM {t}"),
                tables: vec![t],
                condition: None,
            })
            .collect();
        (sets, None)
    }

    /// `p`, its SQL marked for the executor when it has version sets.
    fn finish(&self, p: Plan, v: i64) -> Plan {
        match p {
            Plan::Read {
                sql,
                tables,
                condition,
                version_sets,
                untracked,
            } if !version_sets.is_empty() => Plan::Read {
                sql: format!("{sql} {}", version_sets_marker(v)),
                tables,
                condition,
                version_sets,
                untracked,
            },
            Plan::Write {
                sql,
                kind,
                table,
                condition,
                version_sets,
                untracked,
            } if !version_sets.is_empty() => Plan::Write {
                // Before the trigger-log marker, which must end the statement.
                sql: match sql.strip_suffix(TRIGGER_LOG) {
                    Some(head) => format!("{head}{} {TRIGGER_LOG}", version_sets_marker(v)),
                    None => format!("{sql} {}", version_sets_marker(v)),
                },
                kind,
                table,
                condition,
                version_sets,
                untracked,
            },
            p => p,
        }
    }

    /// The triggers that log table `table`'s written rows to [`LOG_VARIABLE`] (MySQL family):
    /// each row as `[op, rid, prev, ver, changed, user columns…],`, `op` one of `i`, `u`,
    /// `d`; the first row after the log was taken ([`LOG_TAKEN`]) replaces it.
    fn log_triggers(&self, table: &TableMeta) -> Vec<String> {
        if self.returning {
            return Vec::new();
        }
        let name = &table.name;
        let row = |op: &str, image: &str, prev: &str, changed: &str| {
            let columns: String = table
                .columns
                .iter()
                .map(|c| format!(", {image}.{c}"))
                .collect();
            format!(
                "SET {LOG_VARIABLE} = CONCAT(IF({LOG_TAKEN}, '', COALESCE({LOG_VARIABLE}, '')), JSON_ARRAY('{op}', {image}.{ROW_ID}, {prev}, {image}.{VERSION}, {changed}{columns}), ','), {LOG_TAKEN} = 0"
            )
        };
        let unchanged = table
            .columns
            .iter()
            .map(|c| format!("OLD.{c} <=> NEW.{c}"))
            .collect::<Vec<_>>()
            .join(" AND ");
        let changed = if unchanged.is_empty() {
            "0".to_string()
        } else {
            format!("NOT ({unchanged})")
        };
        [
            (WriteKind::Insert, row("i", "NEW", "NULL", "1")),
            (WriteKind::Update, row("u", "NEW", "OLD.txh_ver", &changed)),
            (WriteKind::Delete, row("d", "OLD", "OLD.txh_prev", "1")),
        ]
        .into_iter()
        .map(|(kind, body)| {
            let event = match kind {
                WriteKind::Insert => "INSERT",
                WriteKind::Update => "UPDATE",
                WriteKind::Delete => "DELETE",
            };
            format!(
                "CREATE TRIGGER {}{name} AFTER {event} ON {name} FOR EACH ROW {body}",
                trigger_prefix(kind)
            )
        })
        .collect()
    }
}

/// The plan for `sql`, which writes version `version`, given the tables created so far.
/// `extra_reads` says whether a [`VersionSet`] may run (see there).
pub fn plan(
    sql: &str,
    family: SqlFamily,
    version: Version,
    tables: &[TableMeta],
    extra_reads: bool,
) -> Plan {
    // Transaction control touches no rows, in whatever dialect it is written (`BEGIN
    // PESSIMISTIC`, `START TRANSACTION WITH CONSISTENT SNAPSHOT`, …).
    if StmtKind::of(sql).is_transaction_control() {
        return Plan::Plain;
    }
    let rewriter = Sql::of(family);
    // `sqlparser` does not know MariaDB's `LOCK IN SHARE MODE`: the read is planned without
    // it, and its SQL gets it back (the same rows, the same locks).
    let (sql, share_lock) = without_share_lock(sql, family);
    let mut statements = match Parser::parse_sql(rewriter.dialect.as_ref(), sql) {
        Ok(statements) => statements,
        Err(e) => return Plan::Untracked(format!("txhunt cannot parse it: {e}")),
    };
    let (Some(statement), true) = (statements.pop(), statements.is_empty()) else {
        return Plan::Untracked("not exactly one statement".into());
    };
    let v = version.to_column();
    let rewriter = Sql {
        extra_reads,
        family,
        ..rewriter
    };
    let p = match statement {
        Statement::CreateTable(create) => create_table(create, &rewriter),
        Statement::Insert(insert) => insert_plan(insert, v, tables, &rewriter),
        Statement::Update(update) => update_plan(update, v, tables, &rewriter),
        Statement::Delete(delete) => delete_plan(delete, tables, &rewriter),
        Statement::Query(query) => read_plan(*query, tables, &rewriter),
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
    };
    let p = match p {
        Plan::Read {
            sql,
            tables,
            condition,
            version_sets,
            untracked,
        } if share_lock => Plan::Read {
            sql: format!("{sql} {SHARE_LOCK}"),
            tables,
            condition,
            version_sets,
            untracked,
        },
        other => other,
    };
    rewriter.finish(p, v)
}

/// MariaDB's (and MySQL's older) shared locking-read clause.
const SHARE_LOCK: &str = "LOCK IN SHARE MODE";

/// `sql` without a trailing `LOCK IN SHARE MODE` (MySQL family), and whether it had one.
fn without_share_lock(sql: &str, family: SqlFamily) -> (&str, bool) {
    let trimmed = sql.trim_end().trim_end_matches(';').trim_end();
    let cut = trimmed.len().checked_sub(SHARE_LOCK.len());
    match cut {
        Some(at)
            if family == SqlFamily::Mysql
                && trimmed.is_char_boundary(at)
                && trimmed[at..].eq_ignore_ascii_case(SHARE_LOCK)
                && trimmed[..at].ends_with(char::is_whitespace) =>
        {
            (trimmed[..at].trim_end(), true)
        }
        _ => (sql, false),
    }
}

/// A table's name as instrumentation keys it: lower-case, without identifier quotes
/// (`` `T1` ``, `"t1"` and `t1` name one table).
pub(crate) fn table_key(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '`' | '"' | '[' | ']'))
        .collect::<String>()
        .to_ascii_lowercase()
}

fn first_words(sql: &str) -> String {
    sql.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
}

fn create_table(mut create: sqlparser::ast::CreateTable, sql: &Sql) -> Plan {
    if create.query.is_some() {
        return Plan::Untracked("CREATE TABLE … AS SELECT".into());
    }
    let name = table_key(&create.name.to_string());
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
    let Statement::CreateTable(extra) = sql.parse_one(&format!("CREATE TABLE x ({hidden})")) else {
        unreachable!("a CREATE TABLE parses as a CREATE TABLE")
    };
    create.columns.extend(extra.columns);
    let table = TableMeta { name, columns, key };
    Plan::CreateTable {
        sql: Statement::CreateTable(create).to_string(),
        then: sql.log_triggers(&table),
        table,
    }
}

fn insert_plan(
    mut insert: sqlparser::ast::Insert,
    v: i64,
    tables: &[TableMeta],
    sql: &Sql,
) -> Plan {
    let name = table_key(&insert.table.to_string());
    let original = Statement::Insert(insert.clone()).to_string();
    if let Some(unknown) = not_instrumented(tables, [&name]) {
        return unknown;
    }
    let Some(meta) = tables.iter().find(|t| t.name == name) else {
        unreachable!("an instrumented table has its metadata")
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
        let Statement::Insert(named) = sql.parse_one(&format!(
            "INSERT INTO x ({}) VALUES (1)",
            meta.columns.join(", ")
        )) else {
            unreachable!("an INSERT parses as an INSERT")
        };
        insert.columns = named.columns;
    }
    let Statement::Insert(hidden) = sql.parse_one(&format!(
        "INSERT INTO x ({ROW_ID}, {VERSION}, {PREVIOUS}) VALUES (1, 1, 1)"
    )) else {
        unreachable!("an INSERT parses as an INSERT")
    };
    insert.columns.extend(hidden.columns);
    let (version_sets, untracked) =
        sql.subquery_sets(&original, std::slice::from_ref(&name), tables);
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
                let mut assignments = sql.version_assignments(v, Some(&name));
                assignments.append(&mut update.assignments);
                update.assignments = assignments;
            }
        }
        Some(OnInsert::DuplicateKeyUpdate(assignments)) => {
            let mut versioned = sql.version_assignments(v, None);
            versioned.append(assignments);
            *assignments = versioned;
        }
        Some(_) => {
            return Plan::Untracked("an INSERT with an ON clause txhunt does not know".into())
        }
    }
    insert.returning = sql.returning(&meta.columns);
    Plan::Write {
        sql: sql.write(Statement::Insert(insert)),
        kind: WriteKind::Insert,
        table: name,
        condition: None,
        version_sets,
        untracked,
    }
}

/// `Untracked` when one of `names` is not a table instrumentation created (it has no hidden
/// columns to read or set).
fn not_instrumented<'a>(
    tables: &[TableMeta],
    names: impl IntoIterator<Item = &'a String>,
) -> Option<Plan> {
    names
        .into_iter()
        .find(|name| !tables.iter().any(|t| &t.name == *name))
        .map(|name| Plan::Untracked(format!("table {name} is not instrumented")))
}

fn number(n: i64) -> Expr {
    Expr::value(sqlparser::ast::Value::Number(n.to_string(), false))
}

fn update_plan(
    mut update: sqlparser::ast::Update,
    v: i64,
    tables: &[TableMeta],
    sql: &Sql,
) -> Plan {
    let TableFactor::Table { name, .. } = &update.table.relation else {
        return Plan::Untracked("UPDATE of something other than a table".into());
    };
    let name = table_key(&name.to_string());
    if let Some(unknown) = not_instrumented(tables, [&name]) {
        return unknown;
    }
    if update.from.is_some() || !update.table.joins.is_empty() || update.returning.is_some() {
        return Plan::Untracked("UPDATE with FROM, joins or RETURNING of its own".into());
    }
    let original = Statement::Update(update.clone()).to_string();
    let (version_sets, untracked) =
        sql.subquery_sets(&original, std::slice::from_ref(&name), tables);
    let mut assignments = sql.version_assignments(v, None);
    assignments.append(&mut update.assignments);
    update.assignments = assignments;
    update.returning = sql.returning(&[String::from("*")]);
    Plan::Write {
        condition: update.selection.as_ref().map(ToString::to_string),
        sql: sql.write(Statement::Update(update)),
        kind: WriteKind::Update,
        table: name,
        version_sets,
        untracked,
    }
}

fn delete_plan(mut delete: sqlparser::ast::Delete, tables: &[TableMeta], sql: &Sql) -> Plan {
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
    let original = Statement::Delete(delete.clone()).to_string();
    let name = table_key(&name.to_string());
    if let Some(unknown) = not_instrumented(tables, [&name]) {
        return unknown;
    }
    let (version_sets, untracked) =
        sql.subquery_sets(&original, std::slice::from_ref(&name), tables);
    delete.returning = sql.returning(&[String::from("*")]);
    Plan::Write {
        condition: delete.selection.as_ref().map(ToString::to_string),
        sql: sql.write(Statement::Delete(delete)),
        kind: WriteKind::Delete,
        table: name,
        version_sets,
        untracked,
    }
}

fn read_plan(mut query: Query, known: &[TableMeta], sql: &Sql) -> Plan {
    let original = Statement::Query(Box::new(query.clone())).to_string();
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
    let summarized = aggregate || grouped || select.having.is_some() || select.distinct.is_some();
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
        tables.push(table_key(&name.to_string()));
        qualifiers.push(
            alias
                .as_ref()
                .map_or_else(|| name.to_string(), |a| a.name.to_string()),
        );
    }
    if tables.is_empty() {
        return Plan::Plain;
    }
    if let Some(unknown) = not_instrumented(known, &tables) {
        return unknown;
    }
    let extra = qualifiers
        .iter()
        .enumerate()
        .map(|(i, q)| format!("{q}.{ROW_ID} AS txh_r{i}, {q}.{VERSION} AS txh_v{i}"))
        .collect::<Vec<_>>()
        .join(", ");
    let Statement::Query(items) = sql.parse_one(&format!("SELECT {extra}")) else {
        unreachable!("a SELECT parses as a query")
    };
    let SetExpr::Select(items) = *items.body else {
        unreachable!("a SELECT is a select")
    };
    let condition = select.selection.as_ref().map(ToString::to_string);
    let (mut version_sets, untracked) = sql.subquery_sets(&original, &tables, known);
    if summarized {
        // Its rows are not table rows: the rows it read come from a version set with its
        // FROM and WHERE.
        if !sql.extra_reads {
            return Plan::Untracked(
                "an aggregate, DISTINCT or GROUP BY at SERIALIZABLE: reading its rows' versions would take locks of its own".into(),
            );
        }
        let from: Vec<String> = select.from.iter().map(ToString::to_string).collect();
        let filter = condition
            .as_ref()
            .map_or(String::new(), |c| format!(" WHERE {c}"));
        version_sets.insert(
            0,
            VersionSet {
                sql: format!("SELECT {extra} FROM {}{filter}", from.join(", ")),
                tables,
                condition: condition.clone(),
            },
        );
        return Plan::Read {
            sql: original,
            tables: Vec::new(),
            condition,
            version_sets,
            untracked,
        };
    }
    select.projection.extend(items.projection);
    Plan::Read {
        condition,
        sql: Statement::Query(Box::new(query)).to_string(),
        tables,
        version_sets,
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
    fn a_quoted_table_name_is_the_unquoted_one() {
        let Plan::CreateTable { table, then, .. } = plan(
            "CREATE TABLE `T1` (`k` INT PRIMARY KEY, v INT)",
            Mysql,
            Version::Init(0),
            &[],
            true,
        ) else {
            panic!("a CREATE TABLE plan")
        };
        assert_eq!(table.name, "t1");
        assert!(then[0].starts_with("CREATE TRIGGER txh_ai_t1 AFTER INSERT ON t1 "));
        let write = plan(
            "UPDATE t1 SET v = 2 WHERE k = 1",
            Mysql,
            Version::Step(0),
            &[table],
            true,
        );
        assert!(matches!(write, Plan::Write { .. }), "{write:?}");
    }

    #[test]
    fn a_mariadb_shared_locking_read_keeps_its_lock_clause() {
        let p = plan(
            "SELECT k FROM t WHERE v > 1 lock in share mode;",
            Mysql,
            Version::Step(0),
            &meta(),
            true,
        );
        assert!(matches!(p, Plan::Read { .. }), "{p:?}");
        assert!(
            sql(&p).ends_with(" WHERE v > 1 LOCK IN SHARE MODE"),
            "{p:?}"
        );
        assert!(sql(&p).contains("txh_rid"), "{p:?}");
        // Elsewhere it is not MariaDB's clause.
        let p = plan(
            "SELECT k FROM t LOCK IN SHARE MODE",
            Sqlite,
            Version::Step(0),
            &meta(),
            true,
        );
        assert!(matches!(p, Plan::Untracked(_)), "{p:?}");
    }

    #[test]
    fn create_table_appends_the_hidden_columns_and_knows_the_key() {
        let p = plan(
            "CREATE TABLE t(k INT PRIMARY KEY, v INT)",
            Sqlite,
            Version::Init(0),
            &[],
            true,
        );
        assert_eq!(
            sql(&p),
            "CREATE TABLE t (k INT PRIMARY KEY, v INT, txh_rid BIGINT, txh_ver BIGINT, txh_prev BIGINT)"
        );
        let Plan::CreateTable { table, then, .. } = p else {
            panic!("{p:?}")
        };
        assert_eq!(table, meta()[0]);
        assert!(
            then.is_empty(),
            "no triggers where writes return their rows"
        );
    }

    #[test]
    fn writes_set_versions_and_return_their_rows() {
        let insert = plan(
            "INSERT INTO t VALUES (1, 10), (2, 20)",
            Postgres,
            Version::Step(2),
            &meta(),
            true,
        );
        assert_eq!(
            sql(&insert),
            "INSERT INTO t (k, v, txh_rid, txh_ver, txh_prev) VALUES (1, 10, 3145728, 3, NULL), (2, 20, 3145729, 3, NULL) RETURNING txh_rid, txh_prev, txh_ver, k, v"
        );
        let update = plan(
            "UPDATE t SET v = v + 1 WHERE k = 1",
            Sqlite,
            Version::Step(4),
            &meta(),
            true,
        );
        assert_eq!(
            sql(&update),
            "UPDATE t SET txh_prev = txh_ver, txh_ver = 5, v = v + 1 WHERE k = 1 RETURNING txh_rid, txh_prev, txh_ver, *"
        );
        let delete = plan(
            "DELETE FROM t WHERE v > 3",
            Sqlite,
            Version::Step(5),
            &meta(),
            true,
        );
        assert_eq!(
            sql(&delete),
            "DELETE FROM t WHERE v > 3 RETURNING txh_rid, txh_prev, txh_ver, *"
        );
    }

    #[test]
    fn mysql_writes_report_through_the_trigger_log() {
        let Plan::CreateTable { then, .. } = plan(
            "CREATE TABLE t(k INT PRIMARY KEY, v INT)",
            Mysql,
            Version::Init(0),
            &[],
            true,
        ) else {
            panic!("a table")
        };
        assert_eq!(then.len(), 3);
        assert_eq!(
            then[1],
            "CREATE TRIGGER txh_au_t AFTER UPDATE ON t FOR EACH ROW SET @txh_log = CONCAT(IF(@txh_taken, '', COALESCE(@txh_log, '')), JSON_ARRAY('u', NEW.txh_rid, OLD.txh_ver, NEW.txh_ver, NOT (OLD.k <=> NEW.k AND OLD.v <=> NEW.v), NEW.k, NEW.v), ','), @txh_taken = 0"
        );
        let upsert = plan(
            "INSERT INTO t VALUES (1, 10) ON DUPLICATE KEY UPDATE v = v + 1",
            Mysql,
            Version::Step(0),
            &meta(),
            true,
        );
        assert_eq!(
            sql(&upsert),
            "INSERT INTO t (k, v, txh_rid, txh_ver, txh_prev) VALUES (1, 10, 1048576, 1, NULL) ON DUPLICATE KEY UPDATE txh_prev = txh_ver, txh_ver = 1, v = v + 1 /* txhunt: trigger log */"
        );
    }

    #[test]
    fn reads_return_row_ids_and_versions_of_every_table() {
        let p = plan(
            "SELECT a.v, b.v FROM t AS a JOIN t AS b ON a.k = b.v WHERE a.k > 0",
            Postgres,
            Version::Step(0),
            &meta(),
            true,
        );
        assert_eq!(
            sql(&p),
            "SELECT a.v, b.v, a.txh_rid AS txh_r0, a.txh_ver AS txh_v0, b.txh_rid AS txh_r1, b.txh_ver AS txh_v1 FROM t AS a JOIN t AS b ON a.k = b.v WHERE a.k > 0"
        );
    }

    #[test]
    fn aggregates_and_subqueries_read_version_sets_where_extra_reads_are_allowed() {
        let p = plan(
            "SELECT count(*) FROM t WHERE v > 1 AND k IN (SELECT k FROM u)",
            Postgres,
            Version::Step(3),
            &[
                meta()[0].clone(),
                TableMeta {
                    name: "u".into(),
                    ..meta()[0].clone()
                },
            ],
            true,
        );
        assert_eq!(
            sql(&p),
            "SELECT count(*) FROM t WHERE v > 1 AND k IN (SELECT k FROM u) /* txhunt: version sets 4 */"
        );
        let sets: Vec<(&str, &[String])> = p
            .version_sets()
            .iter()
            .map(|s| (s.sql.as_str(), s.tables.as_slice()))
            .collect();
        assert_eq!(
            sets,
            [
                (
                    "SELECT t.txh_rid AS txh_r0, t.txh_ver AS txh_v0 FROM t WHERE v > 1 AND k IN (SELECT k FROM u)",
                    &["t".to_string()][..]
                ),
                ("SELECT txh_rid AS txh_r0, txh_ver AS txh_v0 FROM u", &["u".to_string()][..]),
            ]
        );
        // At SERIALIZABLE on a server the extra read would lock or be tracked by SSI.
        assert!(matches!(
            plan("SELECT count(*) FROM t", Postgres, Version::Step(0), &meta(), false),
            Plan::Untracked(why) if why.contains("SERIALIZABLE")
        ));
    }

    #[test]
    fn a_marked_statement_names_its_version() {
        let sql = format!(
            "SELECT 1 {} /* txhunt: trigger log */",
            version_sets_marker(-12)
        );
        assert_eq!(marked_version(&sql), Some(-12));
        assert_eq!(marked_version("SELECT 1"), None);
    }

    #[test]
    fn what_cannot_be_tracked_says_why() {
        let untracked = |s: &str| match plan(s, Sqlite, Version::Step(0), &meta(), true) {
            Plan::Untracked(why) => why,
            other => panic!("{s}: {other:?}"),
        };
        assert!(
            untracked("SELECT DISTINCT v FROM t UNION SELECT k FROM t").contains("set operation")
        );
        assert!(untracked("INSERT INTO t SELECT * FROM t").contains("INSERT … SELECT"));
        let Plan::Write { untracked, .. } = plan(
            "UPDATE t SET v = (SELECT max(v) FROM t)",
            Sqlite,
            Version::Step(0),
            &meta(),
            true,
        ) else {
            panic!("a write")
        };
        assert_eq!(untracked, None, "the subquery's table gets a version set");
        assert_eq!(
            plan("BEGIN", Sqlite, Version::Step(0), &[], true),
            Plan::Plain
        );
    }
}
