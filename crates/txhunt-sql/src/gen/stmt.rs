//! Random data statements: SELECT (with joins, aggregates, locking reads), INSERT (with its
//! conflict variants), UPDATE, DELETE.

use super::expr::compatible;
use super::Gen;
use crate::ast::{
    Agg, BinOp, Conflict, Delete, Expr, Insert, Join, Lock, Select, SelectItem, Stmt, Update,
};
use crate::dialect::Feature;
use rand::seq::IndexedRandom;
use rand::RngExt;
use txhunt_model::Value;

impl Gen {
    /// A random data statement and its kind label.
    pub fn data_stmt(&mut self) -> (Stmt, &'static str) {
        let roll = self.rng.random_range(0..100);
        if roll < 40 {
            self.select()
        } else {
            self.write_stmt()
        }
    }

    /// A random INSERT, UPDATE or DELETE and its kind label.
    pub fn write_stmt(&mut self) -> (Stmt, &'static str) {
        let t = self.rng.random_range(0..self.tables.len());
        match self.rng.random_range(0..100) {
            0..=34 => self.insert(t),
            35..=74 => self.update(t),
            _ => self.delete(t),
        }
    }

    fn select(&mut self) -> (Stmt, &'static str) {
        let t = self.rng.random_range(0..self.tables.len());
        let table = self.tables[t].clone();
        let filter = self.rng.random_bool(0.8).then(|| self.predicate(t, 2));
        let mut select = Select {
            items: vec![SelectItem::Star],
            from: table.name.clone(),
            join: None,
            filter,
            group_by: Vec::new(),
            lock: None,
        };
        let roll = self.rng.random_range(0..100);
        if self.config.instrumentable {
            select.items = table.columns[..2]
                .iter()
                .map(|c| SelectItem::Expr(Expr::col(&c.name)))
                .collect();
        } else if roll < 35 {
            let n = self.rng.random_range(1..=table.columns.len().min(3));
            select.items = table
                .columns
                .sample(&mut self.rng, n)
                .map(|c| SelectItem::Expr(Expr::col(&c.name)))
                .collect();
        } else if roll < 55 {
            let key = self.pick_column(t);
            let measured = self.pick_column(t);
            // PostgreSQL has no MIN/MAX of booleans.
            let agg = if measured.ty == crate::ast::SqlType::Boolean {
                Agg::Count
            } else {
                *[Agg::Count, Agg::Min, Agg::Max]
                    .choose(&mut self.rng)
                    .unwrap_or(&Agg::Count)
            };
            select.items = vec![
                SelectItem::Expr(Expr::col(&key.name)),
                SelectItem::CountStar,
                SelectItem::Agg(agg, Expr::col(&measured.name)),
            ];
            if measured.ty.is_numeric() && self.rng.random_bool(0.5) {
                select.items[2] = SelectItem::Agg(Agg::Sum, Expr::col(&measured.name));
            }
            select.group_by = vec![Expr::col(&key.name)];
            return (Stmt::Select(select), "select-aggregate");
        } else if roll < 70 {
            select.join = self.join(t);
        }
        let lock = match self.rng.random_range(0..100) {
            0..=19 if self.dialect.supports(Feature::ForUpdate) => Some(Lock::Update),
            20..=34 if self.dialect.supports(Feature::ForShare) => Some(Lock::Share),
            _ => None,
        };
        select.lock = lock;
        let label = match (lock, select.join.is_some()) {
            (Some(Lock::Update), _) => "select-for-update",
            (Some(Lock::Share), _) => "select-for-share",
            (None, true) => "select-join",
            (None, false) => "select",
        };
        (Stmt::Select(select), label)
    }

    /// `JOIN tU ON tT.x = tU.y` on columns of compatible types, if there are any.
    fn join(&mut self, t: usize) -> Option<Join> {
        let pairs: Vec<(usize, String, String)> = self
            .tables
            .iter()
            .enumerate()
            .filter(|(u, _)| *u != t)
            .flat_map(|(u, other)| {
                let mine = &self.tables[t].columns;
                other.columns.iter().flat_map(move |o| {
                    mine.iter()
                        .filter(move |m| compatible(m.ty, o.ty))
                        .map(move |m| (u, m.name.clone(), o.name.clone()))
                })
            })
            .collect();
        let (u, mine, theirs) = pairs.choose(&mut self.rng)?.clone();
        Some(Join {
            table: self.tables[u].name.clone(),
            on: Expr::col(&mine).binary(BinOp::Eq, Expr::col(&theirs)),
        })
    }

    fn insert(&mut self, t: usize) -> (Stmt, &'static str) {
        let table = self.tables[t].clone();
        let mut columns: Vec<usize> = (0..table.columns.len())
            .filter(|&i| {
                let c = &table.columns[i];
                c.not_null && c.default.is_none() || self.rng.random_bool(0.85)
            })
            .collect();
        if columns.is_empty() {
            columns.push(0);
        }
        let n = self.rng.random_range(1..=3);
        let mut rows = Vec::new();
        for _ in 0..n {
            let row = columns
                .iter()
                .map(|&i| Expr::lit(self.written_value(t, i)))
                .collect();
            rows.push(row);
        }
        let upsertable = !table.primary_key.is_empty() && self.dialect.supports(Feature::Upsert);
        let (conflict, label) = match self.rng.random_range(0..100) {
            0..=14 if self.dialect.supports(Feature::InsertIgnore) => {
                (Conflict::Ignore, "insert-ignore")
            }
            15..=29 if upsertable => (
                Conflict::Update {
                    key: table.primary_key.clone(),
                    set: self.assignments(t),
                },
                "upsert",
            ),
            30..=39 if self.dialect.supports(Feature::Replace) => (Conflict::Replace, "replace"),
            _ => (Conflict::Fail, "insert"),
        };
        let insert = Insert {
            table: table.name.clone(),
            columns: columns
                .iter()
                .map(|&i| table.columns[i].name.clone())
                .collect(),
            rows,
            conflict,
        };
        (Stmt::Insert(insert), label)
    }

    /// A value an INSERT writes to column `i` of table `t`: a fresh version for the version
    /// column, a parent's key for a foreign key, else a constant.
    fn written_value(&mut self, t: usize, i: usize) -> Value {
        let column = self.tables[t].columns[i].clone();
        if self.config.instrumentable && column.name.ends_with("_ver") {
            return Value::Int(self.fresh_version());
        }
        let fk_parent = self.tables[t]
            .foreign_key
            .as_ref()
            .filter(|fk| fk.columns[0] == column.name)
            .and_then(|fk| self.tables.iter().position(|p| p.name == fk.table));
        if let Some(p) = fk_parent {
            let key = self.tables[p].primary_key[0].clone();
            let parent_column = self.tables[p].column(&key).cloned().unwrap_or(column);
            return self.constant(p, &parent_column);
        }
        self.constant(t, &column)
    }

    /// `SET` pairs for an UPDATE or upsert of table `t`: one or two non-key columns (a fresh
    /// version too, in instrumentable mode), set to a constant or, for numbers, to
    /// `column + k`.
    pub(super) fn assignments(&mut self, t: usize) -> Vec<(String, Expr)> {
        let table = self.tables[t].clone();
        let settable: Vec<usize> = (0..table.columns.len())
            .filter(|&i| {
                let name = &table.columns[i].name;
                !table.primary_key.contains(name)
                    && !name.ends_with("_ver")
                    && !name.ends_with("_fk")
            })
            .collect();
        let mut set = Vec::new();
        if self.config.instrumentable {
            let version = self.fresh_version();
            set.push((
                table.columns[1].name.clone(),
                Expr::lit(Value::Int(version)),
            ));
        }
        let n = self.rng.random_range(1..=2).min(settable.len());
        for &i in settable.sample(&mut self.rng, n) {
            let column = table.columns[i].clone();
            let value = if column.ty.is_numeric() && self.rng.random_bool(0.3) {
                let k = Expr::lit(Value::Int(self.rng.random_range(1..=5)));
                // Qualified: in an upsert a bare name could be the new row or the old one.
                let current = Expr::Column {
                    table: Some(table.name.clone()),
                    name: column.name.clone(),
                };
                current.binary(BinOp::Add, k)
            } else {
                Expr::lit(self.constant(t, &column))
            };
            set.push((column.name, value));
        }
        if set.is_empty() {
            // Only key columns: rewrite the first one with a constant.
            let column = table.columns[0].clone();
            set.push((column.name.clone(), Expr::lit(self.constant(t, &column))));
        }
        set
    }

    fn update(&mut self, t: usize) -> (Stmt, &'static str) {
        let set = self.assignments(t);
        let filter = self.rng.random_bool(0.85).then(|| self.predicate(t, 2));
        let update = Update {
            table: self.tables[t].name.clone(),
            set,
            filter,
        };
        (Stmt::Update(update), "update")
    }

    fn delete(&mut self, t: usize) -> (Stmt, &'static str) {
        let filter = self.rng.random_bool(0.9).then(|| self.predicate(t, 2));
        let delete = Delete {
            table: self.tables[t].name.clone(),
            filter,
        };
        (Stmt::Delete(delete), "delete")
    }
}
