//! MySQL/MariaDB writes report their rows through a session variable their tables' triggers
//! append to ([`txhunt_sql::instrument::LOG_VARIABLE`]): [`run`] sends a write marked
//! [`TRIGGER_LOG`] in one round trip between a statement that clears the variable and one
//! that reads it (statements that read no table: no lock, no snapshot), and answers with the
//! rows a `RETURNING` list would have given, plus each row's [`WEIGHT`] in the affected-row
//! count.
//!
//! A stress session need not read the log after each write: an inserted or updated row's
//! entry carries the version of the statement that wrote it, so the log can be read now and
//! then, in the round trip of a COMMIT or ROLLBACK ([`run_then_take`]), and split by version
//! ([`rows_of`]). Reading it that way also has the next logged row start it anew
//! ([`txhunt_sql::instrument::LOG_TAKEN`]): no statement of its own clears it.

use txhunt_db::Connection;
use txhunt_model::{DbError, ErrorClass, Outcome, Row, StmtKind, Value};
use txhunt_sql::instrument::{LOG_TAKEN, LOG_VARIABLE, TRIGGER_LOG};

/// The column holding what a logged row adds to the affected-row count.
pub(super) const WEIGHT: &str = "txh_weight";

/// Runs `sql` on `conn`: a write marked [`TRIGGER_LOG`] answers with its trigger-logged rows;
/// any other statement runs as it is. The log is cleared before each marked write, so rows
/// logged by a write that failed, or by one instrumentation does not track (REPLACE, INSERT …
/// SELECT still fire the triggers), never reach a later write.
pub(super) fn run(conn: &mut dyn Connection, sql: &str) -> Outcome {
    if !marked(sql) {
        return conn.execute(sql);
    }
    let clear = format!("SET {LOG_VARIABLE} = NULL");
    let read = format!("SELECT {LOG_VARIABLE}");
    let mut outcomes = conn.execute_all(&[&clear, sql, &read]);
    if let [_, Outcome::Affected { .. }, Outcome::Rows { rows, .. }] = outcomes.as_slice() {
        match parse(rows.first().and_then(|r| r.first())) {
            Ok(entries) => return logged(&entries, StmtKind::of(sql)),
            // Never silently: the write's rows are missing from its history.
            Err(why) => tracing::error!("{why}: the rows of `{sql}` are not recorded"),
        }
    }
    // The write's own outcome or, where clearing the log failed, what that met.
    outcomes.truncate(2);
    (outcomes.pop())
        .unwrap_or_else(|| lost("the driver answered nothing to the write and its trigger log"))
}

/// Whether `sql` (as instrumentation rewrote it) is a write whose rows the log reports.
pub(super) fn marked(sql: &str) -> bool {
    sql.ends_with(TRIGGER_LOG)
}

/// Reads the log on `conn` and has it cleared (one statement): its entries, or the outcome
/// that reading met (the connection lost, say).
pub(super) fn take(conn: &mut dyn Connection) -> Result<Vec<Entry>, Outcome> {
    entries(vec![conn.execute(&take_sql())])
}

/// Runs `sql` (a COMMIT or ROLLBACK), then [`take`]s the log, in one round trip: the
/// statement's outcome, and the log's entries (where `sql` failed, the batch stopped there
/// and the log is left as it was).
pub(super) fn run_then_take(
    conn: &mut dyn Connection,
    sql: &str,
) -> (Outcome, Result<Vec<Entry>, Outcome>) {
    let mut outcomes = conn.execute_all(&[sql, &take_sql()]);
    if outcomes.is_empty() {
        let met = lost("the driver answered nothing to the statement and the trigger log");
        return (met.clone(), Err(met));
    }
    let outcome = outcomes.remove(0);
    (outcome, entries(outcomes))
}

/// The statement that reads the log and has the next logged row start it anew.
fn take_sql() -> String {
    format!("SELECT {LOG_VARIABLE}, {LOG_TAKEN} := 1")
}

/// The entries the read of [`take_sql`] gave.
fn entries(outcomes: Vec<Outcome>) -> Result<Vec<Entry>, Outcome> {
    match outcomes.as_slice() {
        [Outcome::Rows { rows, .. }] => {
            parse(rows.first().and_then(|r| r.first())).map_err(|why| {
                Outcome::Error(DbError {
                    class: ErrorClass::Other,
                    code: None,
                    message: why,
                })
            })
        }
        _ => Err((outcomes.into_iter())
            .find(|o| !o.succeeded())
            .unwrap_or_else(|| lost("the driver answered nothing to reading the trigger log"))),
    }
}

/// The rows among `entries` that the statement writing `version` inserted or updated (its
/// entries carry its version), as the write's `RETURNING` rows ([`logged`]).
pub(super) fn rows_of(entries: &[Entry], version: i64, kind: StmtKind) -> Outcome {
    let own: Vec<Entry> = (entries.iter())
        .filter(|e| e.get(3).and_then(serde_json::Value::as_i64) == Some(version))
        .cloned()
        .collect();
    logged(&own, kind)
}

/// One logged row: a JSON array `[op, rid, prev, ver, changed, user columns…]`, `changed` a
/// JSON boolean.
pub(super) type Entry = serde_json::Value;

/// The entries of the log's text, JSON arrays each followed by a comma (none for NULL). The
/// server may send it as a binary string (CONCAT of a variable that was NULL).
fn parse(log: Option<&Value>) -> Result<Vec<Entry>, String> {
    let text = match log {
        Some(Value::Text(text)) => text.as_str(),
        Some(Value::Bytes(bytes)) => {
            std::str::from_utf8(bytes).map_err(|e| format!("the trigger log is not UTF-8 ({e})"))?
        }
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(other) => return Err(format!("the trigger log is not text: {other:?}")),
    };
    let list = format!("[{}]", text.strip_suffix(',').unwrap_or(text));
    serde_json::from_str(&list).map_err(|e| format!("the trigger log is not JSON ({e})"))
}

/// A connection failure with `message`.
fn lost(message: &str) -> Outcome {
    Outcome::Error(DbError {
        class: ErrorClass::Connection,
        code: None,
        message: message.into(),
    })
}

/// The logged rows `entries` as a write's `RETURNING` rows: `txh_rid, txh_prev, txh_ver, user
/// columns…, txh_weight`.
fn logged(entries: &[Entry], kind: StmtKind) -> Outcome {
    let rows: Vec<Row> = entries
        .iter()
        .filter_map(|entry| entry.as_array())
        .filter(|entry| entry.len() >= 5)
        .map(|entry| {
            let changed = entry[4]
                .as_bool()
                .or_else(|| entry[4].as_i64().map(|n| n != 0))
                .unwrap_or(true);
            // InnoDB counts an upsert's update twice, and an update to the current values
            // not at all.
            let weight = match (entry[0].as_str(), changed) {
                (Some("u"), false) => 0,
                (Some("u"), true) if kind == StmtKind::Insert => 2,
                _ => 1,
            };
            let mut row: Row = entry[1..4].iter().map(value).collect();
            row.extend(entry[5..].iter().map(value));
            row.push(Value::Int(weight));
            row
        })
        .collect();
    let width = rows.first().map_or(4, Vec::len);
    let mut columns: Vec<String> = ["txh_rid", "txh_prev", "txh_ver"]
        .iter()
        .map(|c| c.to_string())
        .collect();
    columns.extend((3..width - 1).map(|i| format!("c{}", i - 2)));
    columns.push(WEIGHT.into());
    Outcome::Rows { columns, rows }
}

/// A JSON value as a SQL value (decimals become floats: images are informative).
fn value(v: &serde_json::Value) -> Value {
    match v {
        serde_json::Value::Null => Value::Null,
        serde_json::Value::Bool(b) => Value::Bool(*b),
        serde_json::Value::Number(n) => n
            .as_i64()
            .map(Value::Int)
            .unwrap_or_else(|| Value::Float(n.as_f64().unwrap_or(f64::NAN))),
        serde_json::Value::String(s) => Value::Text(s.clone()),
        other => Value::Text(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_of_two_statements_splits_by_version_and_a_broken_log_is_an_error() {
        let log = r#"["u", 7, 1, 3, true, 1, 10],["u", 8, 2, 3, false, 2, 20],["i", 9, null, 4, 1, 3, 30],"#;
        let entries = parse(Some(&Value::Bytes(log.as_bytes().to_vec()))).unwrap();
        assert_eq!(entries.len(), 3);
        let Outcome::Rows { columns, rows } = rows_of(&entries, 3, StmtKind::Update) else {
            panic!("rows");
        };
        assert_eq!(columns.last().map(String::as_str), Some(WEIGHT));
        // rid, prev, ver, user columns, weight: the unchanged row counts 0.
        let first = vec![7, 1, 3, 1, 10, 1]
            .into_iter()
            .map(Value::Int)
            .collect::<Row>();
        assert_eq!(rows[0], first);
        assert_eq!(rows[1].last(), Some(&Value::Int(0)));
        assert_eq!(rows.len(), 2);
        let Outcome::Rows { rows, .. } = rows_of(&entries, 4, StmtKind::Insert) else {
            panic!("rows");
        };
        assert_eq!(rows[0][1], Value::Null);
        assert_eq!(parse(None), Ok(Vec::new()));
        assert!(parse(Some(&Value::Text("[\"u\", 7,".into()))).is_err());
        assert!(parse(Some(&Value::Int(3))).is_err());
    }
}
