//! MySQL text-protocol values to txhunt values, by column type.

use mysql::consts::ColumnType;
use mysql::Column;
use txhunt_model::Value;

/// The binary character set number: such columns hold bytes, not text.
const BINARY_CHARSET: u16 = 63;

/// Converts one value of `column`.
pub(super) fn value(v: mysql::Value, column: &Column) -> Value {
    match v {
        mysql::Value::NULL => Value::Null,
        mysql::Value::Int(i) => Value::Int(i),
        mysql::Value::UInt(u) => {
            i64::try_from(u).map_or_else(|_| Value::Decimal(u.to_string()), Value::Int)
        }
        mysql::Value::Float(f) => Value::Float(f64::from(f)),
        mysql::Value::Double(f) => Value::Float(f),
        mysql::Value::Bytes(bytes) => from_text(bytes, column),
        other => Value::Text(other.as_sql(true).trim_matches('\'').to_string()),
    }
}

fn from_text(bytes: Vec<u8>, column: &Column) -> Value {
    use ColumnType::*;
    let text = || String::from_utf8_lossy(&bytes).into_owned();
    match column.column_type() {
        MYSQL_TYPE_TINY | MYSQL_TYPE_SHORT | MYSQL_TYPE_LONG | MYSQL_TYPE_LONGLONG
        | MYSQL_TYPE_INT24 | MYSQL_TYPE_YEAR => {
            let t = text();
            t.parse().map_or_else(|_| Value::Decimal(t), Value::Int)
        }
        MYSQL_TYPE_DECIMAL | MYSQL_TYPE_NEWDECIMAL => Value::Decimal(text()),
        MYSQL_TYPE_FLOAT | MYSQL_TYPE_DOUBLE => {
            let t = text();
            t.parse().map_or_else(|_| Value::Text(t), Value::Float)
        }
        MYSQL_TYPE_BIT => Value::Bytes(bytes),
        _ if column.character_set() == BINARY_CHARSET => Value::Bytes(bytes),
        _ => Value::Text(text()),
    }
}
