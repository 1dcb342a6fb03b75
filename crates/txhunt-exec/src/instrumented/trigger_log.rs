//! MySQL/MariaDB writes report their rows through a session variable their tables' triggers
//! append to ([`txhunt_sql::instrument::LOG_VARIABLE`]): [`run`] sends a write marked
//! [`TRIGGER_LOG`] in one round trip between a statement that clears the variable and one
//! that reads it (statements that read no table: no lock, no snapshot), and answers with the
//! rows a `RETURNING` list would have given, plus each row's [`WEIGHT`] in the affected-row
//! count.

use txhunt_db::Connection;
use txhunt_model::{DbError, ErrorClass, Outcome, Row, StmtKind, Value};
use txhunt_sql::instrument::{LOG_VARIABLE, TRIGGER_LOG};

/// The column holding what a logged row adds to the affected-row count.
pub(super) const WEIGHT: &str = "txh_weight";

/// Runs `sql` on `conn`: a write marked [`TRIGGER_LOG`] answers with its trigger-logged rows;
/// any other statement runs as it is. The log is cleared before each marked write, so rows
/// logged by a write that failed, or by one instrumentation does not track (REPLACE, INSERT …
/// SELECT still fire the triggers), never reach a later write.
pub(super) fn run(conn: &mut dyn Connection, sql: &str) -> Outcome {
    if !sql.ends_with(TRIGGER_LOG) {
        return conn.execute(sql);
    }
    let clear = format!("SET {LOG_VARIABLE} = NULL");
    let read = format!("SELECT {LOG_VARIABLE}");
    let mut outcomes = conn.execute_all(&[&clear, sql, &read]);
    if let [_, Outcome::Affected { .. }, Outcome::Rows { rows, .. }] = outcomes.as_slice() {
        return logged(rows.first().and_then(|r| r.first()), StmtKind::of(sql));
    }
    // The write's own outcome or, where clearing the log failed, what that met.
    outcomes.truncate(2);
    outcomes.pop().unwrap_or_else(|| {
        Outcome::Error(DbError {
            class: ErrorClass::Connection,
            code: None,
            message: "the driver answered nothing to the write and its trigger log".into(),
        })
    })
}

/// The logged rows (a JSON array of `[op, rid, prev, ver, changed, user columns…]`, `changed`
/// a JSON boolean) as a
/// write's `RETURNING` rows: `txh_rid, txh_prev, txh_ver, user columns…, txh_weight`.
fn logged(log: Option<&Value>, kind: StmtKind) -> Outcome {
    let entries: Vec<serde_json::Value> = match log {
        Some(Value::Text(text)) => serde_json::from_str(text).unwrap_or_default(),
        _ => Vec::new(),
    };
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
