//! One connection to the store's database, SQLite or PostgreSQL, behind the few operations the
//! store needs: run a statement with parameters, read rows, run a closure in a transaction.
//!
//! Statements are written once for both, with PostgreSQL's numbered parameters (`$1`, `$2`,
//! …); SQLite reads them as its own numbered `?1`, `?2`, …. Integers are `BIGINT` and text
//! `TEXT` on both, so a value reads back as the [`Value`] it was written as.

use crate::StoreError;
use postgres::types::{ToSql, Type};

/// A parameter or a column value: the two types the store's tables use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// A `BIGINT` (or `NULL`).
    Int(Option<i64>),
    /// A `TEXT` (or `NULL`).
    Text(Option<String>),
}

impl Value {
    /// The integer (0 for `NULL` or a text).
    pub fn int(&self) -> i64 {
        match self {
            Value::Int(Some(n)) => *n,
            _ => 0,
        }
    }

    /// The integer, `None` for `NULL`.
    pub fn opt_int(&self) -> Option<i64> {
        match self {
            Value::Int(n) => *n,
            Value::Text(_) => None,
        }
    }

    /// The text (`""` for `NULL` or an integer).
    pub fn text(&self) -> String {
        self.opt_text().unwrap_or_default()
    }

    /// The text, `None` for `NULL`.
    pub fn opt_text(&self) -> Option<String> {
        match self {
            Value::Text(t) => t.clone(),
            Value::Int(_) => None,
        }
    }
}

impl From<i64> for Value {
    fn from(n: i64) -> Self {
        Value::Int(Some(n))
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::Text(Some(s.to_string()))
    }
}

impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::Text(Some(s))
    }
}

impl From<Option<String>> for Value {
    fn from(s: Option<String>) -> Self {
        Value::Text(s)
    }
}

/// An open connection.
pub(crate) enum Conn {
    /// An embedded SQLite database file.
    Sqlite(rusqlite::Connection),
    /// A PostgreSQL server shared by several processes.
    Postgres(Box<postgres::Client>),
}

impl Conn {
    /// Runs `sql` with `params`; the number of rows it changed.
    pub(crate) fn exec(&mut self, sql: &str, params: &[Value]) -> Result<u64, StoreError> {
        match self {
            Conn::Sqlite(c) => {
                let mut stmt = c.prepare_cached(&sqlite_sql(sql))?;
                let n =
                    stmt.execute(rusqlite::params_from_iter(params.iter().map(sqlite_value)))?;
                Ok(n as u64)
            }
            Conn::Postgres(c) => Ok(c.execute(sql, &pg_params(params))?),
        }
    }

    /// The rows `sql` answers with `params`, each as its columns' values.
    pub(crate) fn rows(
        &mut self,
        sql: &str,
        params: &[Value],
    ) -> Result<Vec<Vec<Value>>, StoreError> {
        match self {
            Conn::Sqlite(c) => {
                let mut stmt = c.prepare_cached(&sqlite_sql(sql))?;
                let n = stmt.column_count();
                let rows = stmt.query_map(
                    rusqlite::params_from_iter(params.iter().map(sqlite_value)),
                    |row| {
                        (0..n)
                            .map(|i| {
                                Ok(match row.get_ref(i)? {
                                    rusqlite::types::ValueRef::Integer(v) => Value::Int(Some(v)),
                                    rusqlite::types::ValueRef::Null => Value::Int(None),
                                    other => Value::Text(Some(
                                        String::from_utf8_lossy(other.as_bytes().unwrap_or(&[]))
                                            .into_owned(),
                                    )),
                                })
                            })
                            .collect::<Result<Vec<_>, rusqlite::Error>>()
                    },
                )?;
                Ok(rows.collect::<Result<_, _>>()?)
            }
            Conn::Postgres(c) => {
                let rows = c.query(sql, &pg_params(params))?;
                rows.iter()
                    .map(|row| {
                        (0..row.len())
                            .map(|i| {
                                Ok(match *row.columns()[i].type_() {
                                    Type::INT8 => Value::Int(row.try_get(i)?),
                                    Type::INT4 => {
                                        Value::Int(row.try_get::<_, Option<i32>>(i)?.map(i64::from))
                                    }
                                    _ => Value::Text(row.try_get(i)?),
                                })
                            })
                            .collect()
                    })
                    .collect()
            }
        }
    }

    /// Runs `work` in one transaction: committed when it returns `Ok`, rolled back otherwise.
    /// SQLite's is `BEGIN IMMEDIATE`: it takes the write lock first, so two processes never
    /// both read and then fail to write.
    pub(crate) fn transaction<T>(
        &mut self,
        work: impl FnOnce(&mut Conn) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let begin = match self {
            Conn::Sqlite(_) => "BEGIN IMMEDIATE",
            Conn::Postgres(_) => "BEGIN",
        };
        self.batch(begin)?;
        match work(self) {
            Ok(value) => {
                self.batch("COMMIT")?;
                Ok(value)
            }
            Err(e) => {
                // The error that made the transaction fail is the one to report.
                let _ = self.batch("ROLLBACK");
                Err(e)
            }
        }
    }

    /// Runs statements without parameters (`;`-separated).
    pub(crate) fn batch(&mut self, sql: &str) -> Result<(), StoreError> {
        match self {
            Conn::Sqlite(c) => c.execute_batch(sql)?,
            Conn::Postgres(c) => c.batch_execute(sql)?,
        }
        Ok(())
    }

    /// Whether this is the shared PostgreSQL store.
    pub(crate) fn is_postgres(&self) -> bool {
        matches!(self, Conn::Postgres(_))
    }
}

/// `sql` with PostgreSQL's `$N` parameters as SQLite's `?N`.
fn sqlite_sql(sql: &str) -> String {
    sql.replace('$', "?")
}

/// `value` as rusqlite binds it.
fn sqlite_value(value: &Value) -> rusqlite::types::Value {
    match value {
        Value::Int(Some(n)) => rusqlite::types::Value::Integer(*n),
        Value::Text(Some(t)) => rusqlite::types::Value::Text(t.clone()),
        Value::Int(None) | Value::Text(None) => rusqlite::types::Value::Null,
    }
}

/// `params` as the postgres crate binds them.
fn pg_params(params: &[Value]) -> Vec<&(dyn ToSql + Sync)> {
    params
        .iter()
        .map(|p| match p {
            Value::Int(n) => n as &(dyn ToSql + Sync),
            Value::Text(t) => t as &(dyn ToSql + Sync),
        })
        .collect()
}
