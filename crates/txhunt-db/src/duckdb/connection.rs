//! One DuckDB session: statements, values and errors. Nothing in DuckDB waits for a lock, so
//! there is no wait to report.

use crate::profile::duckdb::DuckdbProfile;
use crate::target::{Connection, Interrupt};
use duckdb::types::ValueRef;
use std::sync::Arc;
use txhunt_model::{DbError, DbState, Outcome, Row, StmtKind, Value};

/// The one column DuckDB answers a data-changing statement without `RETURNING` with: the
/// number of rows it changed (DDL answers it too, with no row).
const CHANGED_ROWS: &str = "Count";

/// The one column DuckDB answers transaction control with.
const SUCCESS: &str = "Success";

/// A session's connection to the execution's database instance.
pub(super) struct DuckdbConnection {
    conn: duckdb::Connection,
    /// Whether a transaction is open: the driver's own `is_autocommit` always answers true,
    /// so the session follows its BEGIN, COMMIT and ROLLBACK (an aborted transaction stays
    /// open until one of the latter two ends it).
    open: bool,
}

impl DuckdbConnection {
    pub(super) fn new(conn: duckdb::Connection) -> Self {
        DuckdbConnection { conn, open: false }
    }
}

impl Connection for DuckdbConnection {
    fn execute(&mut self, sql: &str) -> Outcome {
        let kind = StmtKind::of(sql);
        let outcome = run(&self.conn, sql, kind).unwrap_or_else(|e| Outcome::Error(error(&e)));
        match kind {
            StmtKind::Begin if outcome.succeeded() => self.open = true,
            // A failed COMMIT (a conflict found at commit) ends the transaction too.
            StmtKind::Commit | StmtKind::Rollback => self.open = false,
            _ => {}
        }
        outcome
    }

    fn in_transaction(&mut self) -> Option<bool> {
        Some(self.open)
    }

    fn interrupter(&self) -> Arc<dyn Interrupt> {
        Arc::new(DuckdbInterrupt(self.conn.interrupt_handle()))
    }

    fn session_id(&self) -> Option<String> {
        None
    }
}

/// Runs `sql` (of kind `kind`): a data-changing statement answers the rows it changed, unless
/// its `RETURNING` list answers rows (any result but DuckDB's single `Count` column); any
/// other statement answers its rows unless DuckDB answered only its `Count` or `Success`
/// status (DDL, transaction control).
fn run(conn: &duckdb::Connection, sql: &str, kind: StmtKind) -> duckdb::Result<Outcome> {
    let mut stmt = conn.prepare(sql)?;
    let mut cursor = stmt.query([])?;
    let columns = cursor
        .as_ref()
        .map(|s| s.column_names())
        .unwrap_or_default();
    let mut rows = Vec::new();
    while let Some(row) = cursor.next()? {
        rows.push(read_row(row, columns.len()));
    }
    Ok(if kind.is_write() && columns == [CHANGED_ROWS] {
        Outcome::Affected {
            count: match rows.first().and_then(|r| r.first()) {
                Some(Value::Int(n)) => u64::try_from(*n).unwrap_or(0),
                _ => 0,
            },
        }
    } else if kind == StmtKind::Select
        || kind.is_write()
        || !(columns.is_empty() || columns == [CHANGED_ROWS] || columns == [SUCCESS])
    {
        Outcome::Rows { columns, rows }
    } else {
        Outcome::Ok
    })
}

struct DuckdbInterrupt(Arc<duckdb::InterruptHandle>);

impl Interrupt for DuckdbInterrupt {
    fn interrupt(&self) {
        self.0.interrupt();
    }
}

/// A `duckdb::Error` as a [`DbError`], classified by the DuckDB profile from its message.
fn error(e: &duckdb::Error) -> DbError {
    let message = match e {
        duckdb::Error::DuckDBFailure(_, Some(message)) => message.clone(),
        other => other.to_string(),
    };
    DbError {
        class: DuckdbProfile::classify(&message),
        code: None,
        message,
    }
}

fn read_row(row: &duckdb::Row<'_>, width: usize) -> Row {
    crate::embedded::read_row(width, |i| row.get_ref(i).map(value))
}

/// A DuckDB value as txhunt's: integers of every width as [`Value::Int`] (a HUGEINT sum beyond
/// 64 bits as its decimal text), DECIMAL as its exact text.
fn value(v: ValueRef<'_>) -> Value {
    let int = |i: i128| i64::try_from(i).map_or_else(|_| Value::Decimal(i.to_string()), Value::Int);
    match v {
        ValueRef::Null => Value::Null,
        ValueRef::Boolean(b) => Value::Bool(b),
        ValueRef::TinyInt(i) => Value::Int(i.into()),
        ValueRef::SmallInt(i) => Value::Int(i.into()),
        ValueRef::Int(i) => Value::Int(i.into()),
        ValueRef::BigInt(i) => Value::Int(i),
        ValueRef::HugeInt(i) => int(i),
        ValueRef::UTinyInt(i) => Value::Int(i.into()),
        ValueRef::USmallInt(i) => Value::Int(i.into()),
        ValueRef::UInt(i) => Value::Int(i.into()),
        ValueRef::UBigInt(i) => int(i.into()),
        ValueRef::UHugeInt(i) => {
            i128::try_from(i).map_or_else(|_| Value::Decimal(i.to_string()), int)
        }
        ValueRef::Float(f) => Value::Float(f.into()),
        ValueRef::Double(f) => Value::Float(f),
        ValueRef::Decimal(d) => Value::Decimal(d.to_string()),
        ValueRef::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Blob(b) => Value::Bytes(b.to_vec()),
        other => Value::Text(format!("{other:?}")),
    }
}

/// Every user table's rows.
pub(super) fn dump(conn: &duckdb::Connection) -> duckdb::Result<DbState> {
    let mut names = conn.prepare(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' AND table_type = 'BASE TABLE' ORDER BY table_name",
    )?;
    let tables: Vec<String> = names
        .query_map([], |r| r.get(0))?
        .collect::<duckdb::Result<_>>()?;
    let mut state = DbState::new();
    for table in tables {
        let sql = format!("SELECT * FROM \"{}\"", table.replace('"', "\"\""));
        let mut stmt = conn.prepare(&sql)?;
        let mut cursor = stmt.query([])?;
        let columns = cursor.as_ref().map_or(Vec::new(), |s| s.column_names());
        let mut rows = Vec::new();
        while let Some(row) = cursor.next()? {
            rows.push(read_row(row, columns.len()));
        }
        state.insert_visible(&table, &columns, rows);
    }
    Ok(state)
}
