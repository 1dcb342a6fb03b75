//! What the embedded targets (SQLite, Turso, DuckDB) share: the directory their database files
//! go to, and how a row is read.

use crate::target::TargetError;
use std::path::{Path, PathBuf};
use txhunt_model::{Row, Value};

/// How many sessions one execution of an embedded target may open. Each is a connection in
/// this process with a thread, file descriptors (SQLite: the database file and its WAL) and a
/// page cache (SQLite: up to 2 MB) of its own, and the oracles run several executions at once.
/// Generated cases have one session per transaction (`--max-txns`, 5 by default); at 64 the
/// sessions of a few executions fit the usual limit of 1,024 open files.
pub(crate) const MAX_SESSIONS: usize = 64;

/// Checks a `--target NAME:DIR` directory: it must exist (txhunt creates only its own temp
/// directories inside it).
pub(crate) fn check_dir(name: &str, dir: Option<PathBuf>) -> Result<Option<PathBuf>, TargetError> {
    if let Some(d) = &dir {
        if !d.is_dir() {
            return Err(TargetError::Spec(format!(
                "{name}:{}: not a directory (give the directory where txhunt may create its database files)",
                d.display()
            )));
        }
    }
    Ok(dir)
}

/// A fresh temp directory (prefix `txhunt_`) for one execution's database files, under `dir`
/// or [`crate::scratch::root`]; deleted when dropped.
pub(crate) fn temp_dir(dir: Option<&Path>) -> Result<tempfile::TempDir, TargetError> {
    let mut builder = tempfile::Builder::new();
    builder.prefix("txhunt_");
    match dir {
        Some(d) => builder.tempdir_in(d),
        None => builder.tempdir_in(crate::scratch::root()),
    }
    .map_err(|e| TargetError::db("creating the database directory", e))
}

/// A row of `width` values, value `i` read by `get(i)`; one the driver cannot read is shown as
/// text saying why.
pub(crate) fn read_row<E: std::fmt::Display>(
    width: usize,
    get: impl Fn(usize) -> Result<Value, E>,
) -> Row {
    (0..width)
        .map(|i| get(i).unwrap_or_else(|e| Value::Text(format!("<unreadable: {e}>"))))
        .collect()
}
