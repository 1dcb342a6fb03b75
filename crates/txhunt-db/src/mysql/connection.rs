//! One MySQL-protocol session.

use super::pool::Pool;
use super::value::value;
use crate::profile::ServerProfile;
use crate::target::{with_causes, Connection, Interrupt};
use mysql::prelude::Queryable;
use mysql::Conn;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use txhunt_model::{DbError, DbState, ErrorClass, Outcome, Row, StmtKind};

/// A session's connection; given back to the target's pool when dropped, unless a statement
/// of it was interrupted (a `KILL QUERY` sent late could reach the next execution's statement).
pub(super) struct MysqlConnection {
    conn: Option<Conn>,
    id: String,
    profile: &'static dyn ServerProfile,
    monitor: Arc<Mutex<Conn>>,
    interrupted: Arc<AtomicBool>,
    pool: Arc<Pool>,
}

impl MysqlConnection {
    /// Wraps `conn`, whose id the server gave as `id` (else the handshake's is taken).
    pub(super) fn new(
        conn: Conn,
        id: Option<String>,
        profile: &'static dyn ServerProfile,
        monitor: Arc<Mutex<Conn>>,
        pool: Arc<Pool>,
    ) -> Self {
        let id = id.unwrap_or_else(|| conn.connection_id().to_string());
        MysqlConnection {
            conn: Some(conn),
            id,
            profile,
            monitor,
            interrupted: Arc::new(AtomicBool::new(false)),
            pool,
        }
    }

    fn conn(&mut self) -> &mut Conn {
        self.conn
            .as_mut()
            .expect("the connection is only taken when the session is dropped")
    }
}

impl Drop for MysqlConnection {
    fn drop(&mut self) {
        if let Some(conn) = self.conn.take() {
            if !self.interrupted.load(Ordering::SeqCst) {
                self.pool.give(conn);
            }
        }
    }
}

/// Runs `sql` and reads its first result.
fn run(conn: &mut Conn, sql: &str) -> Result<Outcome, mysql::Error> {
    let mut result = conn.query_iter(sql)?;
    let first = match result.iter() {
        Some(set) => outcome(set, sql),
        None => Ok(Outcome::Ok),
    };
    first
}

/// Runs `sqls` as one multi-statement query (one round trip): the outcome of each statement
/// that ran; the server runs none after the first that fails.
fn run_all(conn: &mut Conn, sqls: &[&str]) -> Vec<Result<Outcome, mysql::Error>> {
    let mut result = match conn.query_iter(join_statements(sqls)) {
        Ok(result) => result,
        Err(e) => return vec![Err(e)],
    };
    let mut outcomes = Vec::with_capacity(sqls.len());
    for sql in sqls {
        let Some(set) = result.iter() else { break };
        let o = outcome(set, sql);
        let failed = o.is_err();
        outcomes.push(o);
        if failed {
            break;
        }
    }
    outcomes
}

/// `sqls` as one multi-statement query: the separators on lines of their own, so that a
/// statement ending in a `--` or `#` comment cannot swallow the next one.
pub(super) fn join_statements(sqls: &[impl AsRef<str>]) -> String {
    let sqls: Vec<&str> = sqls.iter().map(AsRef::as_ref).collect();
    sqls.join("\n;\n")
}

/// What the statement `sql` whose result is `set` did.
fn outcome(
    mut set: mysql::ResultSet<'_, '_, '_, '_, mysql::Text>,
    sql: &str,
) -> Result<Outcome, mysql::Error> {
    let columns: Vec<mysql::Column> = set.columns().as_ref().to_vec();
    let count = set.affected_rows();
    let mut rows = Vec::new();
    for row in set.by_ref() {
        rows.push(read_row(row?, &columns));
    }
    if columns.is_empty() {
        return Ok(if StmtKind::of(sql).is_write() {
            Outcome::Affected { count }
        } else {
            Outcome::Ok
        });
    }
    Ok(Outcome::Rows {
        columns: columns.iter().map(|c| c.name_str().into_owned()).collect(),
        rows,
    })
}

fn read_row(row: mysql::Row, columns: &[mysql::Column]) -> Row {
    row.unwrap()
        .into_iter()
        .zip(columns)
        .map(|(v, c)| value(v, c))
        .collect()
}

/// A driver error as a [`DbError`].
fn error(e: mysql::Error, profile: &dyn ServerProfile) -> DbError {
    if let mysql::Error::MySqlError(e) = e {
        return DbError {
            class: profile.classify(&e.code.to_string(), &e.message),
            code: Some(e.code.to_string()),
            message: e.message,
        };
    }
    let class = match e {
        mysql::Error::IoError(_) | mysql::Error::CodecError(_) | mysql::Error::DriverError(_) => {
            ErrorClass::Connection
        }
        _ => ErrorClass::Other,
    };
    DbError {
        class,
        code: None,
        message: describe(&e),
    }
}

/// A driver error as a sentence, without the `DriverError { … }` wrapping of its `Display`:
/// the server's error as the `mysql` client prints it (`ERROR 1049 (42000): Unknown database
/// 'x'`), or the driver's or the system's message and its causes.
pub(super) fn describe(e: &mysql::Error) -> String {
    match e {
        mysql::Error::MySqlError(e) => e.to_string(),
        mysql::Error::IoError(e) => with_causes(e),
        mysql::Error::CodecError(e) => with_causes(e),
        mysql::Error::DriverError(e) => with_causes(e),
        mysql::Error::UrlError(e) => with_causes(e),
        other => other.to_string(),
    }
}

impl Connection for MysqlConnection {
    fn execute(&mut self, sql: &str) -> Outcome {
        let profile = self.profile;
        run(self.conn(), sql).unwrap_or_else(|e| Outcome::Error(error(e, profile)))
    }

    fn execute_all(&mut self, sqls: &[&str]) -> Vec<Outcome> {
        let profile = self.profile;
        (run_all(self.conn(), sqls).into_iter())
            .map(|o| o.unwrap_or_else(|e| Outcome::Error(error(e, profile))))
            .collect()
    }

    /// In multi-statement batches: the server stops a batch at a statement that fails, and
    /// the next batch starts after it.
    fn execute_setup(&mut self, sqls: &[&str]) -> Vec<Outcome> {
        let mut outcomes = Vec::with_capacity(sqls.len());
        while outcomes.len() < sqls.len() {
            let ran = self.execute_all(&sqls[outcomes.len()..]);
            if ran.is_empty() {
                // Nothing answered: the rest one by one, each then says what it meets.
                let rest = &sqls[outcomes.len()..];
                outcomes.extend(rest.iter().map(|sql| self.execute(sql)));
                break;
            }
            outcomes.extend(ran);
        }
        outcomes
    }

    fn in_transaction(&mut self) -> Option<bool> {
        let query = self.profile.in_transaction_query()?;
        self.conn()
            .query_first::<i64, _>(query)
            .ok()
            .flatten()
            .map(|n| n != 0)
    }

    fn interrupter(&self) -> Arc<dyn Interrupt> {
        Arc::new(KillQuery {
            id: self.id.clone(),
            monitor: Arc::clone(&self.monitor),
            interrupted: Arc::clone(&self.interrupted),
        })
    }

    fn session_id(&self) -> Option<String> {
        Some(self.id.clone())
    }
}

/// Cancels a session's statement with `KILL QUERY` from the monitor session (and keeps the
/// session out of the pool).
struct KillQuery {
    id: String,
    monitor: Arc<Mutex<Conn>>,
    interrupted: Arc<AtomicBool>,
}

impl Interrupt for KillQuery {
    fn interrupt(&self) {
        self.interrupted.store(true, Ordering::SeqCst);
        let mut monitor = self.monitor.lock().unwrap_or_else(|p| p.into_inner());
        if let Err(e) = monitor.query_drop(format!("KILL QUERY {}", self.id)) {
            tracing::debug!("KILL QUERY {} failed: {}", self.id, describe(&e));
        }
    }
}

/// Every user table's rows of database `db`, read on `conn` (whatever database it uses) in
/// two round trips: the tables' names, then all their rows.
pub(super) fn dump(
    conn: &mut Conn,
    profile: &dyn ServerProfile,
    db: &str,
) -> Result<DbState, mysql::Error> {
    let tables: Vec<String> = conn.query(format!(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = '{}' \
         AND table_type = 'BASE TABLE' ORDER BY table_name",
        db.replace('\\', "\\\\").replace('\'', "''")
    ))?;
    let db = profile.quote_ident(db);
    let reads: Vec<String> = (tables.iter())
        .map(|table| format!("SELECT * FROM {db}.{}", profile.quote_ident(table)))
        .collect();
    let reads: Vec<&str> = reads.iter().map(String::as_str).collect();
    let mut state = DbState::new();
    if reads.is_empty() {
        return Ok(state);
    }
    let mut outcomes = run_all(conn, &reads).into_iter();
    for table in &tables {
        let outcome = outcomes.next().unwrap_or_else(|| {
            let lost = format!("the server did not answer the read of table {table}");
            Err(mysql::Error::IoError(std::io::Error::other(lost)))
        });
        match outcome? {
            Outcome::Rows { columns, rows } => state.insert_visible(table, &columns, rows),
            _ => state.insert(table, Vec::new()),
        }
    }
    Ok(state)
}
