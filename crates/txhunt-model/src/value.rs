//! Values and rows as txhunt compares them, whatever driver produced them.

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::fmt;

/// One SQL value, normalized across drivers.
///
/// Exact decimals are kept as text (`Decimal("1.50")`) so that no precision is lost; floats are
/// kept as `f64` and ordered with `total_cmp` so that rows can be sorted and compared as bags.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "type", content = "value", rename_all = "snake_case")]
pub enum Value {
    /// SQL NULL.
    Null,
    /// A boolean, for engines that have a boolean type.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// An exact decimal, as the engine printed it.
    Decimal(String),
    /// A binary floating-point number.
    Float(f64),
    /// A character string.
    Text(String),
    /// A byte string.
    Bytes(Vec<u8>),
}

/// A row: the values of one result or table row, in column order.
pub type Row = Vec<Value>;

impl Value {
    fn rank(&self) -> u8 {
        match self {
            Value::Null => 0,
            Value::Bool(_) => 1,
            Value::Int(_) => 2,
            Value::Decimal(_) => 3,
            Value::Float(_) => 4,
            Value::Text(_) => 5,
            Value::Bytes(_) => 6,
        }
    }

    /// The value's number written canonically (`1`, `1.5`, `-0.25`), if it is a number or boolean.
    ///
    /// Used to compare a scenario's literal `1.5` with what an engine returns for it, which may be
    /// an integer, an exact decimal `1.50` or a float.
    pub fn canonical_number(&self) -> Option<String> {
        match self {
            Value::Bool(b) => Some(if *b { "1" } else { "0" }.to_string()),
            Value::Int(i) => Some(i.to_string()),
            Value::Decimal(d) => Some(canonical_decimal(d)),
            Value::Float(f) if f.is_finite() => Some(canonical_decimal(&format!("{f}"))),
            _ => None,
        }
    }

    /// The value with a number or boolean written as its [`Value::canonical_number`] (a
    /// [`Value::Decimal`]), anything else as it is: two values denote the same SQL value exactly
    /// when their canonical forms are equal, so rows compared in this form ignore how each
    /// engine represents a number (SQLite's `0` for a BOOLEAN, DuckDB's `FALSE`; `1.50` and
    /// `1.5`).
    pub fn canonical(&self) -> Value {
        match self.canonical_number() {
            Some(number) => Value::Decimal(number),
            None => self.clone(),
        }
    }

    /// Whether `self` and `other` denote the same SQL value: equal numbers match whatever their
    /// representation (so an expectation `1.5` matches a DECIMAL `1.50` and a DOUBLE `1.5`);
    /// everything else must be equal.
    pub fn same_as(&self, other: &Value) -> bool {
        match (self.canonical_number(), other.canonical_number()) {
            (Some(a), Some(b)) => a == b,
            _ => self == other,
        }
    }
}

/// Strips a decimal's sign of zero, leading zeros and trailing fractional zeros.
fn canonical_decimal(text: &str) -> String {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    if digits.contains(['e', 'E']) || digits.chars().any(|c| !(c.is_ascii_digit() || c == '.')) {
        return text.to_string();
    }
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let int = int.trim_start_matches('0');
    let frac = frac.trim_end_matches('0');
    let int = if int.is_empty() { "0" } else { int };
    let body = if frac.is_empty() {
        int.to_string()
    } else {
        format!("{int}.{frac}")
    };
    if negative && body != "0" {
        format!("-{body}")
    } else {
        body
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Value {}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Value {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (Value::Bool(a), Value::Bool(b)) => a.cmp(b),
            (Value::Int(a), Value::Int(b)) => a.cmp(b),
            (Value::Decimal(a), Value::Decimal(b)) => a.cmp(b),
            (Value::Float(a), Value::Float(b)) => a.total_cmp(b),
            (Value::Text(a), Value::Text(b)) => a.cmp(b),
            (Value::Bytes(a), Value::Bytes(b)) => a.cmp(b),
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

impl fmt::Display for Value {
    /// Writes the value as a SQL literal, the way scenario files spell it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("NULL"),
            Value::Bool(b) => f.write_str(if *b { "TRUE" } else { "FALSE" }),
            Value::Int(i) => write!(f, "{i}"),
            Value::Decimal(d) => f.write_str(d),
            Value::Float(x) if x.is_finite() => {
                let text = format!("{x:?}");
                f.write_str(&text)
            }
            Value::Float(x) => write!(f, "'{x}'"),
            Value::Text(s) => write!(f, "'{}'", s.replace('\'', "''")),
            Value::Bytes(b) => {
                f.write_str("X'")?;
                for byte in b {
                    write!(f, "{byte:02X}")?;
                }
                f.write_str("'")
            }
        }
    }
}

/// The rows of `a` not matched by a row of `b`, each row of `b` matching once (bag difference).
pub fn bag_difference(a: &[Row], b: &[Row]) -> Vec<Row> {
    let mut left = b.to_vec();
    a.iter()
        .filter(|row| match left.iter().position(|r| r == *row) {
            Some(at) => {
                left.swap_remove(at);
                false
            }
            None => true,
        })
        .cloned()
        .collect()
}

/// Writes rows as a scenario file's bag literal: `[(1, 'a'), (2, NULL)]`.
pub fn format_rows(rows: &[Row]) -> String {
    let inner: Vec<String> = rows
        .iter()
        .map(|row| {
            let values: Vec<String> = row.iter().map(Value::to_string).collect();
            format!("({})", values.join(", "))
        })
        .collect();
    format!("[{}]", inner.join(", "))
}

/// Whether two bags of rows hold the same rows the same number of times, order ignored, values
/// compared with [`Value::same_as`].
pub fn same_bag(expected: &[Row], observed: &[Row]) -> bool {
    if expected.len() != observed.len() {
        return false;
    }
    let mut unmatched: Vec<&Row> = observed.iter().collect();
    for want in expected {
        let hit = unmatched.iter().position(|got| {
            got.len() == want.len() && got.iter().zip(want).all(|(g, w)| g.same_as(w))
        });
        match hit {
            Some(i) => {
                unmatched.swap_remove(i);
            }
            None => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_match_across_representations() {
        assert!(Value::Int(1).same_as(&Value::Decimal("1.00".into())));
        assert!(Value::Decimal("1.5".into()).same_as(&Value::Float(1.5)));
        assert!(Value::Decimal("-0.0".into()).same_as(&Value::Int(0)));
        assert!(!Value::Int(1).same_as(&Value::Text("1".into())));
        assert!(!Value::Null.same_as(&Value::Int(0)));
        assert!(Value::Null.same_as(&Value::Null));
    }

    #[test]
    fn bags_ignore_order_but_count_duplicates() {
        let a = vec![
            vec![Value::Int(1)],
            vec![Value::Int(2)],
            vec![Value::Int(2)],
        ];
        let b = vec![
            vec![Value::Int(2)],
            vec![Value::Int(1)],
            vec![Value::Int(2)],
        ];
        let c = vec![
            vec![Value::Int(2)],
            vec![Value::Int(1)],
            vec![Value::Int(1)],
        ];
        assert!(same_bag(&a, &b));
        assert!(!same_bag(&a, &c));
    }

    #[test]
    fn literals_print_as_sql() {
        let row = vec![
            Value::Int(-3),
            Value::Text("it's".into()),
            Value::Null,
            Value::Float(2.0),
            Value::Bytes(vec![0xab, 1]),
        ];
        assert_eq!(format_rows(&[row]), "[(-3, 'it''s', NULL, 2.0, X'AB01')]");
    }
}
