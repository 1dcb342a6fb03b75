//! Random values and the initial rows of each table.

use super::Gen;
use crate::ast::{Column, SqlType, Table};
use rand::seq::IndexedRandom;
use rand::RngExt;
use txhunt_model::Value;

impl Gen {
    /// A random value of `ty`, from small ranges so that values repeat and predicates match.
    pub fn random_value(&mut self, ty: SqlType) -> Value {
        match ty {
            SqlType::Int => Value::Int(self.rng.random_range(-20..=50)),
            SqlType::BigInt => Value::Int(self.rng.random_range(-1000..=1000)),
            SqlType::Decimal { scale, .. } => {
                let whole: i64 = self.rng.random_range(-99..=999);
                let frac: u32 = self.rng.random_range(0..100);
                if scale == 0 {
                    Value::Decimal(whole.to_string())
                } else {
                    Value::Decimal(format!("{whole}.{frac:02}"))
                }
            }
            SqlType::Double => Value::Float(f64::from(self.rng.random_range(-40i32..=80)) / 4.0),
            SqlType::Varchar(_) | SqlType::Text => {
                let len = self.rng.random_range(0..=4);
                let text: String = (0..len)
                    .map(|_| *b"abcdeXY".choose(&mut self.rng).unwrap_or(&b'a') as char)
                    .collect();
                Value::Text(text)
            }
            SqlType::Boolean => Value::Bool(self.rng.random_bool(0.5)),
        }
    }

    /// A value for `column`: NULL now and then where allowed, else a random value.
    pub fn value_for(&mut self, column: &Column) -> Value {
        if !column.not_null && self.rng.random_bool(0.1) {
            Value::Null
        } else {
            self.random_value(column.ty)
        }
    }

    /// Up to `max_rows` rows for `table` that satisfy its keys, NOT NULL and CHECK
    /// constraints; foreign keys point at rows of `existing` data (of the tables in
    /// `self.tables`).
    pub fn rows(
        &mut self,
        table: &Table,
        existing: &[(String, Vec<Vec<Value>>)],
    ) -> Vec<Vec<Value>> {
        let target = self.rng.random_range(0..=self.config.max_rows);
        let mut rows: Vec<Vec<Value>> = Vec::new();
        for _ in 0..target * 3 {
            if rows.len() >= target {
                break;
            }
            let row: Vec<Value> = table
                .columns
                .iter()
                .map(|c| self.initial_value(table, c, existing))
                .collect();
            if self.fits(table, &rows, &row) {
                rows.push(row);
            }
        }
        rows
    }

    fn initial_value(
        &mut self,
        table: &Table,
        column: &Column,
        existing: &[(String, Vec<Vec<Value>>)],
    ) -> Value {
        if column.name.ends_with("_ver") && self.config.instrumentable {
            return Value::Int(self.fresh_version());
        }
        if let Some(fk) = table
            .foreign_key
            .as_ref()
            .filter(|fk| fk.columns[0] == column.name)
        {
            let key = self
                .tables
                .iter()
                .find(|t| t.name == fk.table)
                .and_then(|parent| {
                    parent
                        .columns
                        .iter()
                        .position(|c| c.name == fk.references[0])
                });
            let parent_keys: Vec<Value> = existing
                .iter()
                .find(|(name, _)| *name == fk.table)
                .zip(key)
                .map(|((_, rows), k)| rows.iter().map(|r| r[k].clone()).collect())
                .unwrap_or_default();
            return parent_keys
                .choose(&mut self.rng)
                .cloned()
                .unwrap_or(Value::Null);
        }
        let value = self.value_for(column);
        match (&column.check, &value) {
            (Some(_), Value::Int(i)) => Value::Int(i.abs()),
            (Some(_), Value::Decimal(d)) => Value::Decimal(d.trim_start_matches('-').to_string()),
            (Some(_), Value::Float(f)) => Value::Float(f.abs()),
            _ => value,
        }
    }

    /// Whether `row` keeps the primary key and UNIQUE columns of `table` unique among `rows`.
    fn fits(&self, table: &Table, rows: &[Vec<Value>], row: &[Value]) -> bool {
        let index = |name: &String| table.columns.iter().position(|c| c.name == *name);
        let key: Vec<usize> = table.primary_key.iter().filter_map(index).collect();
        if !key.is_empty()
            && rows
                .iter()
                .any(|r| key.iter().all(|&k| same_key(&r[k], &row[k])))
        {
            return false;
        }
        table.columns.iter().enumerate().all(|(i, c)| {
            !c.unique || row[i] == Value::Null || !rows.iter().any(|r| same_key(&r[i], &row[i]))
        })
    }
}

/// Key equality as a DBMS sees it: numbers by value, text case-insensitively (MySQL's default
/// collation), so no engine rejects the initial data as duplicate.
fn same_key(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Text(x), Value::Text(y)) => x.eq_ignore_ascii_case(y),
        _ => a.same_as(b),
    }
}
