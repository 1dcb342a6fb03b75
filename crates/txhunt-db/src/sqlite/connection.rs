//! One SQLite session: statements, values, errors, and lock waits through the busy handler.

use crate::profile::sqlite::{Phase, SqliteProfile};
use crate::target::{Connection, Interrupt, LockWaitHook, TargetError};
use rusqlite::config::DbConfig;
use rusqlite::types::ValueRef;
use rusqlite::{InterruptHandle, OpenFlags};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use txhunt_model::{DbError, DbState, ErrorClass, Isolation, Outcome, Row, StmtKind, Value};

/// Opens a connection to `path` at `isolation` (read-uncommitted uses the shared cache).
/// Commits are not synced to disk (`synchronous = OFF`): the throwaway database needs no
/// durability, as the testbed servers run without fsync too, and locking is unchanged. For the
/// same reason the last connection to close does not copy the WAL into the database file
/// (`SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`): the file is deleted next.
pub(super) fn open(path: &Path, isolation: Isolation) -> Result<rusqlite::Connection, TargetError> {
    let mut flags = OpenFlags::SQLITE_OPEN_READ_WRITE
        | OpenFlags::SQLITE_OPEN_CREATE
        | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let shared = isolation == Isolation::ReadUncommitted;
    flags |= if shared {
        OpenFlags::SQLITE_OPEN_SHARED_CACHE
    } else {
        OpenFlags::SQLITE_OPEN_PRIVATE_CACHE
    };
    let conn = rusqlite::Connection::open_with_flags(path, flags)
        .map_err(|e| TargetError::db(format!("opening {}", path.display()), e))?;
    conn.pragma_update(None, "synchronous", "OFF")
        .map_err(|e| TargetError::db("turning synchronous off", e))?;
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)
        .map_err(|e| TargetError::db("turning the checkpoint on close off", e))?;
    if shared {
        conn.pragma_update(None, "read_uncommitted", 1)
            .map_err(|e| TargetError::db("enabling read_uncommitted", e))?;
    }
    Ok(conn)
}

/// A session's connection; its busy handler reports lock waits to the executor.
pub(super) struct SqliteConnection {
    conn: rusqlite::Connection,
    waited: Arc<AtomicBool>,
}

impl SqliteConnection {
    pub(super) fn new(
        mut conn: rusqlite::Connection,
        hook: Option<Arc<dyn LockWaitHook>>,
    ) -> Result<Self, TargetError> {
        let waited = Arc::new(AtomicBool::new(false));
        if let Some(hook) = hook {
            let flag = Arc::clone(&waited);
            conn.busy_handler(Some(move |_attempt: i32| {
                flag.store(true, Ordering::SeqCst);
                hook.waiting()
            }))
            .map_err(|e| TargetError::db("installing the busy handler", e))?;
        }
        Ok(SqliteConnection { conn, waited })
    }

    fn run(&mut self, sql: &str) -> Result<Outcome, DbError> {
        let mut stmt = self
            .conn
            .prepare(sql)
            .map_err(|e| error(e, Phase::Prepare))?;
        if stmt.column_count() == 0 {
            stmt.raw_execute()
                .map_err(|e| step_error(&self.waited, e))?;
            return Ok(if StmtKind::of(sql).is_write() {
                Outcome::Affected {
                    count: self.conn.changes(),
                }
            } else {
                Outcome::Ok
            });
        }
        let columns: Vec<String> = stmt.column_names().map(str::to_string).collect();
        let width = columns.len();
        let mut rows = Vec::new();
        let mut cursor = stmt.raw_query();
        loop {
            match cursor.next() {
                Ok(Some(row)) => rows.push(read_row(row, width)),
                Ok(None) => break,
                Err(e) => return Err(step_error(&self.waited, e)),
            }
        }
        Ok(Outcome::Rows { columns, rows })
    }
}

impl Connection for SqliteConnection {
    fn execute(&mut self, sql: &str) -> Outcome {
        self.waited.store(false, Ordering::SeqCst);
        self.run(sql).unwrap_or_else(Outcome::Error)
    }

    fn in_transaction(&mut self) -> Option<bool> {
        Some(!self.conn.is_autocommit())
    }

    fn interrupter(&self) -> Arc<dyn Interrupt> {
        Arc::new(SqliteInterrupt(self.conn.get_interrupt_handle()))
    }

    fn session_id(&self) -> Option<String> {
        None
    }
}

struct SqliteInterrupt(InterruptHandle);

impl Interrupt for SqliteInterrupt {
    fn interrupt(&self) {
        self.0.interrupt();
    }
}

/// An error while running a statement; `waited` tells whether the busy handler was called.
fn step_error(waited: &AtomicBool, e: rusqlite::Error) -> DbError {
    let waited = waited.load(Ordering::SeqCst);
    error(e, Phase::Step { waited })
}

/// A rusqlite error as a [`DbError`], classified by the SQLite profile.
fn error(e: rusqlite::Error, phase: Phase) -> DbError {
    match &e {
        rusqlite::Error::SqliteFailure(failure, message) => DbError {
            class: SqliteProfile::classify(failure.extended_code, phase),
            code: Some(failure.extended_code.to_string()),
            message: message.clone().unwrap_or_else(|| failure.to_string()),
        },
        // What `prepare` reports for text SQLite cannot compile (rusqlite adds the offset).
        rusqlite::Error::SqlInputError { error, .. } => DbError {
            class: SqliteProfile::classify(error.extended_code, phase),
            code: Some(error.extended_code.to_string()),
            message: e.to_string(),
        },
        rusqlite::Error::MultipleStatement => DbError {
            class: ErrorClass::Syntax,
            code: None,
            message: e.to_string(),
        },
        _ => DbError {
            class: ErrorClass::Other,
            code: None,
            message: e.to_string(),
        },
    }
}

fn read_row(row: &rusqlite::Row<'_>, width: usize) -> Row {
    crate::embedded::read_row(width, |i| row.get_ref(i).map(value))
}

fn value(v: ValueRef<'_>) -> Value {
    match v {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => Value::Int(i),
        ValueRef::Real(f) => Value::Float(f),
        ValueRef::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Blob(b) => Value::Bytes(b.to_vec()),
    }
}

/// Every user table's rows.
pub(super) fn dump(conn: &rusqlite::Connection) -> rusqlite::Result<DbState> {
    let mut names = conn.prepare(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )?;
    let tables: Vec<String> = names
        .query_map([], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    let mut state = DbState::new();
    for table in tables {
        let mut stmt =
            conn.prepare(&format!("SELECT * FROM \"{}\"", table.replace('"', "\"\"")))?;
        let width = stmt.column_count();
        let columns: Vec<String> = stmt.column_names().map(String::from).collect();
        let rows = stmt
            .query_map([], |r| Ok(read_row(r, width)))?
            .collect::<rusqlite::Result<Vec<Row>>>()?;
        state.insert_visible(&table, &columns, rows);
    }
    Ok(state)
}
