//! Random schemas: tables, columns, constraints, indexes, foreign keys.

use super::Gen;
use crate::ast::{BinOp, Column, Expr, ForeignKey, Index, SqlType, Table};
use crate::dialect::Feature;
use rand::seq::IndexedRandom;
use rand::RngExt;
use txhunt_model::Value;

/// The column types generated, each with a weight.
const TYPES: &[SqlType] = &[
    SqlType::Int,
    SqlType::Int,
    SqlType::BigInt,
    SqlType::Decimal {
        precision: 8,
        scale: 2,
    },
    SqlType::Double,
    SqlType::Varchar(10),
    SqlType::Text,
    SqlType::Boolean,
];

impl Gen {
    /// 1 to `max_tables` tables named `t0, t1, …`; the columns of table `tK` are named after
    /// its letter (`a0, a1, …` for `t0`), so no column name is ambiguous in a join.
    pub fn schema(&mut self) -> (Vec<Table>, Vec<Index>) {
        let n = self.rng.random_range(1..=self.config.max_tables.max(1));
        let mut tables: Vec<Table> = Vec::new();
        let mut indexes = Vec::new();
        for t in 0..n {
            let table = self.table(t, &tables);
            if self.rng.random_bool(0.4) {
                let column = table.columns.choose(&mut self.rng).map(|c| c.name.clone());
                if let Some(column) = column {
                    indexes.push(Index {
                        name: format!("i{t}"),
                        table: table.name.clone(),
                        columns: vec![column],
                        unique: false,
                    });
                }
            }
            tables.push(table);
        }
        (tables, indexes)
    }

    fn table(&mut self, t: usize, earlier: &[Table]) -> Table {
        let letter = (b'a' + t as u8) as char;
        let mut columns = Vec::new();
        if self.config.instrumentable {
            columns.push(plain(&format!("{letter}_pk"), SqlType::Int, true));
            columns.push(plain(&format!("{letter}_ver"), SqlType::Int, true));
        }
        let n = self.rng.random_range(1..=self.config.max_columns.max(1));
        for i in 0..n {
            let ty = *TYPES.choose(&mut self.rng).unwrap_or(&SqlType::Int);
            let column = self.column(&format!("{letter}{i}"), ty);
            columns.push(column);
        }
        let primary_key = if self.config.instrumentable {
            vec![columns[0].name.clone()]
        } else {
            self.primary_key(&columns)
        };
        for c in columns.iter_mut() {
            if primary_key.contains(&c.name) {
                c.not_null = true;
                c.unique = false;
                c.default = None;
            }
        }
        let foreign_key = self.foreign_key(&mut columns, earlier);
        Table {
            name: format!("t{t}"),
            columns,
            primary_key,
            foreign_key,
        }
    }

    fn column(&mut self, name: &str, ty: SqlType) -> Column {
        let mut column = plain(name, ty, self.rng.random_bool(0.3));
        column.unique = ty != SqlType::Boolean && !ty.is_text() && self.rng.random_bool(0.1);
        if self.rng.random_bool(0.2) {
            column.default = Some(self.random_value(ty));
        }
        if ty.is_numeric() && self.dialect.supports(Feature::Check) && self.rng.random_bool(0.15) {
            let bound = self.rng.random_range(-50..0);
            column.check = Some(Expr::col(name).binary(BinOp::Ge, Expr::lit(Value::Int(bound))));
            if let Some(Value::Int(d)) = &column.default {
                if *d < bound {
                    column.default = None;
                }
            }
            if matches!(column.default, Some(Value::Decimal(_) | Value::Float(_))) {
                column.default = None;
            }
        }
        column
    }

    /// One column (70%), two columns (20%) or none (10%), never a floating-point or text
    /// column (equality on them differs between engines).
    fn primary_key(&mut self, columns: &[Column]) -> Vec<String> {
        let keyable: Vec<&Column> = columns
            .iter()
            .filter(|c| matches!(c.ty, SqlType::Int | SqlType::BigInt | SqlType::Varchar(_)))
            .collect();
        let roll = self.rng.random_range(0..10);
        match (roll, keyable.len()) {
            (_, 0) | (9, _) => Vec::new(),
            (7 | 8, n) if n >= 2 => keyable[..2].iter().map(|c| c.name.clone()).collect(),
            _ => vec![keyable[0].name.clone()],
        }
    }

    /// Now and then (15%) an integer column referencing an earlier table's one-column integer
    /// primary key.
    fn foreign_key(&mut self, columns: &mut Vec<Column>, earlier: &[Table]) -> Option<ForeignKey> {
        if !self.dialect.supports(Feature::ForeignKey) || !self.rng.random_bool(0.15) {
            return None;
        }
        let parents: Vec<&Table> = earlier
            .iter()
            .filter(|t| {
                t.primary_key.len() == 1
                    && t.column(&t.primary_key[0])
                        .is_some_and(|c| c.ty == SqlType::Int)
            })
            .collect();
        let parent = parents.choose(&mut self.rng)?;
        let name = format!("{}_fk", columns[0].name.trim_end_matches(char::is_numeric));
        columns.push(plain(&name, SqlType::Int, false));
        Some(ForeignKey {
            columns: vec![name],
            table: parent.name.clone(),
            references: parent.primary_key.clone(),
        })
    }
}

/// A column with no constraint but NOT NULL when asked.
fn plain(name: &str, ty: SqlType, not_null: bool) -> Column {
    Column {
        name: name.to_string(),
        ty,
        not_null,
        unique: false,
        default: None,
        check: None,
    }
}
