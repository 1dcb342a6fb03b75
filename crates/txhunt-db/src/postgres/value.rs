//! PostgreSQL text values to txhunt values, by column type.

use postgres::types::Type;
use txhunt_model::Value;

/// Converts one text value of a column of type `ty`.
pub(super) fn value(text: Option<&str>, ty: &Type) -> Value {
    let Some(text) = text else {
        return Value::Null;
    };
    match *ty {
        Type::INT2 | Type::INT4 | Type::INT8 | Type::OID => text
            .parse()
            .map_or_else(|_| Value::Decimal(text.to_string()), Value::Int),
        Type::NUMERIC => Value::Decimal(text.to_string()),
        Type::FLOAT4 | Type::FLOAT8 => text
            .parse()
            .map_or_else(|_| Value::Text(text.to_string()), Value::Float),
        Type::BOOL => Value::Bool(text == "t"),
        Type::BYTEA => {
            decode_bytea(text).map_or_else(|| Value::Text(text.to_string()), Value::Bytes)
        }
        _ => Value::Text(text.to_string()),
    }
}

/// Decodes PostgreSQL's hex output format `\x0a1b`.
fn decode_bytea(text: &str) -> Option<Vec<u8>> {
    let hex = text.strip_prefix("\\x")?;
    if !hex.len().is_multiple_of(2) {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_by_type() {
        assert_eq!(value(Some("42"), &Type::INT4), Value::Int(42));
        assert_eq!(
            value(Some("1.50"), &Type::NUMERIC),
            Value::Decimal("1.50".into())
        );
        assert_eq!(value(Some("t"), &Type::BOOL), Value::Bool(true));
        assert_eq!(
            value(Some("\\x0aff"), &Type::BYTEA),
            Value::Bytes(vec![10, 255])
        );
        assert_eq!(value(None, &Type::TEXT), Value::Null);
        assert_eq!(value(Some("x"), &Type::VARCHAR), Value::Text("x".into()));
    }
}
