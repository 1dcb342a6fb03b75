//! One Turso session: statements, values, errors, and lock waits emulated from `Busy`.

use super::engine;
use crate::profile::turso::TursoProfile;
use crate::target::{Connection, Interrupt, LockWaitHook};
use futures::executor::block_on;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use txhunt_model::{DbError, DbState, Outcome, Row, StmtKind, Value};

/// How long a session waits before retrying a statement that got `Busy`.
const RETRY: Duration = Duration::from_millis(1);

/// How long a session retries a statement that keeps getting `Busy` before it fails with
/// that `Busy` (`lock-timeout`), as an SQLite application with a busy timeout does.
const BUSY_TIMEOUT: Duration = Duration::from_secs(1);

/// A session's connection. Turso reports a lock conflict as `Busy` at once; unless the
/// session holds a read snapshot in normal mode (SQLite then returns SQLITE_BUSY without
/// calling its busy handler, and so does this connection), the connection reports it as a
/// wait through the hook and retries while the executor lets it, as SQLite's busy handler
/// does. Turso detects no deadlocks: two sessions that each wait for the other
/// (in MVCC mode, a plain transaction — a SAVEPOINT outside a transaction opens one — and a
/// concurrent one) would retry forever, so after [`BUSY_TIMEOUT`] the statement fails.
pub(super) struct TursoConnection {
    conn: engine::Connection,
    hook: Option<Arc<dyn LockWaitHook>>,
    mvcc: bool,
    interrupted: Arc<AtomicBool>,
    /// Whether the session's open transaction has read the database (holds a snapshot): a
    /// `Busy` then fails at once, as SQLite gives it without calling its busy handler.
    holds_snapshot: bool,
}

impl TursoConnection {
    pub(super) fn new(
        conn: engine::Connection,
        hook: Option<Arc<dyn LockWaitHook>>,
        mvcc: bool,
    ) -> Self {
        TursoConnection {
            conn,
            hook,
            mvcc,
            interrupted: Arc::new(AtomicBool::new(false)),
            holds_snapshot: false,
        }
    }

    /// Notes whether the session holds a read snapshot after `sql` ran (successfully or not):
    /// a data statement inside an open transaction reads the database; the end of the
    /// transaction lets the snapshot go.
    fn track_snapshot(&mut self, sql: &str, succeeded: bool) {
        let open = self.conn.is_autocommit().is_ok_and(|auto| !auto);
        let reads = matches!(
            StmtKind::of(sql),
            StmtKind::Select
                | StmtKind::Insert
                | StmtKind::Update
                | StmtKind::Delete
                | StmtKind::Other
        );
        self.holds_snapshot = open && (self.holds_snapshot || (reads && succeeded));
    }

    /// Runs `sql` once.
    fn run(&self, sql: &str) -> Result<Outcome, engine::Error> {
        block_on(async {
            let mut stmt = self.conn.prepare(sql).await?;
            if stmt.column_count() == 0 {
                let count = stmt.execute(()).await?;
                return Ok(if StmtKind::of(sql).is_write() {
                    Outcome::Affected { count }
                } else {
                    Outcome::Ok
                });
            }
            let columns = stmt.column_names();
            let mut rows = Vec::new();
            let mut cursor = stmt.query(()).await?;
            while let Some(row) = cursor.next().await? {
                rows.push(read_row(&row, columns.len()));
            }
            Ok(Outcome::Rows { columns, rows })
        })
    }
}

impl Connection for TursoConnection {
    fn execute(&mut self, sql: &str) -> Outcome {
        self.interrupted.store(false, Ordering::SeqCst);
        // MVCC mode: transactions are concurrent ones.
        let sql = if self.mvcc && StmtKind::of(sql) == StmtKind::Begin {
            "BEGIN CONCURRENT"
        } else {
            sql
        };
        let started = std::time::Instant::now();
        let mut waited = false;
        let outcome = loop {
            match self.run(sql) {
                Ok(outcome) => break outcome,
                Err(engine::Error::Busy(_))
                    if (self.mvcc || !self.holds_snapshot)
                        && !self.interrupted.load(Ordering::SeqCst)
                        && started.elapsed() < BUSY_TIMEOUT
                        && self.hook.as_ref().is_some_and(|hook| {
                            waited = true;
                            hook.waiting()
                        }) =>
                {
                    std::thread::sleep(RETRY);
                }
                Err(e) => break Outcome::Error(error(&e, waited)),
            }
        };
        self.track_snapshot(sql, outcome.succeeded());
        outcome
    }

    fn in_transaction(&mut self) -> Option<bool> {
        self.conn.is_autocommit().ok().map(|auto| !auto)
    }

    fn interrupter(&self) -> Arc<dyn Interrupt> {
        Arc::new(TursoInterrupt(Arc::clone(&self.interrupted)))
    }

    fn session_id(&self) -> Option<String> {
        None
    }
}

/// Stops a statement's retries; Turso itself never blocks.
struct TursoInterrupt(Arc<AtomicBool>);

impl Interrupt for TursoInterrupt {
    fn interrupt(&self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// A `turso::Error` as a [`DbError`], classified by the Turso profile from its variant and
/// message, and whether the statement waited for a lock first.
fn error(e: &engine::Error, waited: bool) -> DbError {
    use engine::Error as E;
    let variant = match e {
        E::Busy(_) => "Busy",
        E::BusySnapshot(_) => "BusySnapshot",
        E::Constraint(_) => "Constraint",
        E::Interrupt(_) => "Interrupt",
        E::Corrupt(_) => "Corrupt",
        E::NotAdb(_) => "NotAdb",
        E::IoError(..) => "IoError",
        E::Misuse(_) => "Misuse",
        _ => "Error",
    };
    DbError {
        class: TursoProfile::classify(variant, &e.to_string(), waited),
        code: Some(variant.to_string()),
        message: e.to_string(),
    }
}

fn read_row(row: &engine::Row, width: usize) -> Row {
    crate::embedded::read_row(width, |i| row.get_value(i).map(value))
}

fn value(v: engine::Value) -> Value {
    match v {
        engine::Value::Null => Value::Null,
        engine::Value::Integer(i) => Value::Int(i),
        engine::Value::Real(f) => Value::Float(f),
        engine::Value::Text(t) => Value::Text(t),
        engine::Value::Blob(b) => Value::Bytes(b),
    }
}

/// Every user table's rows (not Turso's own `__turso_internal_*` tables).
pub(super) async fn dump(conn: &engine::Connection) -> Result<DbState, engine::Error> {
    let mut names = conn
        .query(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '\\_\\_turso\\_internal%' ESCAPE '\\' ORDER BY name",
            (),
        )
        .await?;
    let mut tables = Vec::new();
    while let Some(row) = names.next().await? {
        if let engine::Value::Text(name) = row.get_value(0)? {
            tables.push(name);
        }
    }
    drop(names);
    let mut state = DbState::new();
    for table in tables {
        let sql = format!("SELECT * FROM \"{}\"", table.replace('"', "\"\""));
        let mut rows = conn.query(&sql, ()).await?;
        let columns = rows.column_names();
        let mut all = Vec::new();
        while let Some(row) = rows.next().await? {
            all.push(read_row(&row, columns.len()));
        }
        state.insert_visible(&table, &columns, all);
    }
    Ok(state)
}
