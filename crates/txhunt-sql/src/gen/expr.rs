//! Type-correct predicates and constants.

use super::Gen;
use crate::ast::{BinOp, Column, Expr, Func, Select, SelectItem, SqlType};
use rand::seq::IndexedRandom;
use rand::RngExt;
use txhunt_model::Value;

const COMPARISONS: [BinOp; 6] = [
    BinOp::Eq,
    BinOp::Ne,
    BinOp::Lt,
    BinOp::Le,
    BinOp::Gt,
    BinOp::Ge,
];

impl Gen {
    /// A constant for `column` of table `t`: half the time a value present in the initial data
    /// (so predicates hit rows), else a random one.
    pub fn constant(&mut self, t: usize, column: &Column) -> Value {
        let index = self.tables[t]
            .columns
            .iter()
            .position(|c| c.name == column.name);
        if let Some(i) = index {
            if self.rng.random_bool(0.5) {
                if let Some(row) = self.rows[t].choose(&mut self.rng) {
                    if row[i] != Value::Null {
                        return row[i].clone();
                    }
                }
            }
        }
        self.random_value(column.ty)
    }

    /// A random column of table `t`.
    pub fn pick_column(&mut self, t: usize) -> Column {
        let columns = &self.tables[t].columns;
        columns[self.rng.random_range(0..columns.len())].clone()
    }

    /// A boolean predicate over table `t`; `depth` bounds nesting.
    pub fn predicate(&mut self, t: usize, depth: u32) -> Expr {
        self.condition(t, depth, true)
    }

    /// A predicate; `subqueries` allows `IN (SELECT …)` (never inside a subquery: MySQL
    /// refuses a subquery on the table an UPDATE or DELETE writes).
    fn condition(&mut self, t: usize, depth: u32, subqueries: bool) -> Expr {
        let roll = self.rng.random_range(0..100);
        if depth > 0 && roll < 15 {
            let op = if self.rng.random_bool(0.5) {
                BinOp::And
            } else {
                BinOp::Or
            };
            let left = self.condition(t, depth - 1, subqueries);
            return left.binary(op, self.condition(t, depth - 1, subqueries));
        }
        if depth > 0 && roll < 20 {
            return Expr::Not(Box::new(self.condition(t, depth - 1, subqueries)));
        }
        let column = self.pick_column(t);
        let col = Expr::col(&column.name);
        match roll {
            20..=49 => {
                let op = *COMPARISONS.choose(&mut self.rng).unwrap_or(&BinOp::Eq);
                col.binary(op, Expr::lit(self.constant(t, &column)))
            }
            50..=59 if column.ty != SqlType::Boolean => {
                let (a, b) = (self.constant(t, &column), self.constant(t, &column));
                let (low, high) = if a <= b { (a, b) } else { (b, a) };
                Expr::Between {
                    expr: Box::new(col),
                    low: Box::new(Expr::lit(low)),
                    high: Box::new(Expr::lit(high)),
                }
            }
            60..=69 => {
                let n = self.rng.random_range(1..=3);
                let list = (0..n)
                    .map(|_| Expr::lit(self.constant(t, &column)))
                    .collect();
                Expr::InList {
                    expr: Box::new(col),
                    list,
                }
            }
            70..=79 => Expr::IsNull {
                expr: Box::new(col),
                negated: self.rng.random_bool(0.5),
            },
            80..=89 => self.function_comparison(t, &column),
            90..=99 if subqueries => self.in_subquery(t, &column),
            _ => col.binary(BinOp::Eq, Expr::lit(self.constant(t, &column))),
        }
    }

    /// `col + k op c` for numbers, `LENGTH(col) op n` / `UPPER(col) = c` for text,
    /// `COALESCE(col, c) = c` otherwise.
    fn function_comparison(&mut self, t: usize, column: &Column) -> Expr {
        let col = Expr::col(&column.name);
        let op = *COMPARISONS.choose(&mut self.rng).unwrap_or(&BinOp::Eq);
        if column.ty.is_numeric() {
            let k = Expr::lit(Value::Int(self.rng.random_range(1..=5)));
            let left = if self.rng.random_bool(0.5) {
                col.binary(BinOp::Add, k)
            } else {
                Expr::Func {
                    func: Func::Abs,
                    args: vec![col],
                }
            };
            return left.binary(op, Expr::lit(self.constant(t, column)));
        }
        if column.ty.is_text() {
            if self.rng.random_bool(0.5) {
                let length = Expr::Func {
                    func: Func::Length,
                    args: vec![col],
                };
                return length.binary(op, Expr::lit(Value::Int(self.rng.random_range(0..=4))));
            }
            let func = if self.rng.random_bool(0.5) {
                Func::Upper
            } else {
                Func::Lower
            };
            let value = Expr::lit(self.constant(t, column));
            return Expr::Func {
                func,
                args: vec![col],
            }
            .binary(BinOp::Eq, value);
        }
        let c = self.constant(t, column);
        Expr::Func {
            func: Func::Coalesce,
            args: vec![col, Expr::lit(c.clone())],
        }
        .binary(BinOp::Eq, Expr::lit(c))
    }

    /// `col IN (SELECT other FROM tK WHERE …)` over a column of another table with a compatible
    /// type; a plain comparison when there is none.
    fn in_subquery(&mut self, t: usize, column: &Column) -> Expr {
        let compatible: Vec<(usize, String)> = self
            .tables
            .iter()
            .enumerate()
            .filter(|(u, _)| *u != t)
            .flat_map(|(u, table)| {
                table
                    .columns
                    .iter()
                    .filter(|c| compatible(c.ty, column.ty))
                    .map(move |c| (u, c.name.clone()))
            })
            .collect();
        let Some((u, other)) = compatible.choose(&mut self.rng).cloned() else {
            return Expr::col(&column.name).binary(BinOp::Eq, Expr::lit(self.constant(t, column)));
        };
        let filter = self
            .rng
            .random_bool(0.6)
            .then(|| self.condition(u, 0, false));
        Expr::InSubquery {
            expr: Box::new(Expr::col(&column.name)),
            query: Box::new(Select {
                items: vec![SelectItem::Expr(Expr::col(&other))],
                from: self.tables[u].name.clone(),
                join: None,
                filter,
                group_by: Vec::new(),
                lock: None,
            }),
        }
    }
}

/// Whether values of `a` and `b` compare without casts on every engine.
pub(crate) fn compatible(a: SqlType, b: SqlType) -> bool {
    (a.is_numeric() && b.is_numeric()) || (a.is_text() && b.is_text()) || a == b
}
