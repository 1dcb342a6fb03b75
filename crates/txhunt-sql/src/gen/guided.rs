//! Cases guided by an anomaly pattern (APTrans, paper 004 §3.3): the pattern's statement-type,
//! data-access and schedule-order constraints, realised on the generator's random schema
//! and rows.
//!
//! * **Data access** (the paper's condition alignment): each data item of the pattern (`x`,
//!   `y`) becomes one initial row, a different one per item, picked at random among the rows
//!   of the tables with a primary key and a column outside it; a statement on the item
//!   selects exactly that row by its primary key, and a write sets only columns outside it,
//!   so the row stays the item.
//! * **Statement types**: a read is `SELECT * … WHERE <row's key>` (or, with probability
//!   [`VALUE_READ`], `WHERE <non-key column> = <its value in the row>`: a predicate read), a
//!   write an `UPDATE … SET <one or two non-key columns> WHERE <row's key>`, a commit
//!   `COMMIT`, an abort `ROLLBACK`.
//!   Whether a write installs the version the pattern names is the DBMS's business: the
//!   pattern is what the case lets happen if the DBMS lets it.
//! * **Schedule order**: every transaction begins first (APTrans assumes all of them have
//!   begun before the first operation), then the operations are submitted in the pattern's
//!   order, transaction `Ti` on session `ti`.
//! * **The rest stays random**: each transaction gets, with probability
//!   [`NOISE`], one random data statement of the generator's at a random place among its
//!   operations (never after its commit or abort).
//!
//! A case whose tables hold fewer rows than the pattern has items cannot realise it: it is
//! a random case, and says so by [`GeneratedCase::pattern`] being `None`.

use super::{Gen, GeneratedCase};
use crate::ast::{BinOp, Expr, Select, SelectItem, Stmt, Update};
use crate::render::render;
use rand::RngExt;
use txhunt_model::pattern::{OpKind, Pattern};
use txhunt_model::{Step, Value};

/// How likely each transaction of a guided case gets one random data statement more.
pub const NOISE: f64 = 0.3;
/// How likely a read of a guided case selects its row by the value of a column a write may
/// set instead of by key (a predicate read, which can form predicate cycles: APTrans's
/// condition alignment draws conditions on any column).
pub const VALUE_READ: f64 = 0.25;

/// Whether a write of a guided case may set column `name` of `table`: not a key column,
/// and not one the generator keeps to itself (versions, foreign keys).
fn settable(table: &crate::ast::Table, name: &str) -> bool {
    !table.primary_key.iter().any(|k| k == name)
        && !name.ends_with("_ver")
        && !name.ends_with("_fk")
}

impl Gen {
    /// A case that realises `pattern` if the DBMS lets it (see the module docs).
    pub fn guided_case(&mut self, pattern: &Pattern) -> GeneratedCase {
        let (init, init_kinds) = self.setup();
        let items = pattern.items();
        let Some(rows) = self.distinct_rows(items.len()) else {
            return self.random_case((init, init_kinds));
        };
        let txns = pattern.txns();
        // Per transaction, the pattern operation after which its noise statement goes.
        let noise: Vec<Option<usize>> = (txns.iter())
            .map(|&t| {
                let ops = pattern.ops.iter().filter(|o| o.txn == t).count();
                (ops > 1 && self.rng.random_bool(NOISE)).then(|| self.rng.random_range(0..ops - 1))
            })
            .collect();
        // Each write's SET list, chosen first: a predicate read may ask for a value a write of
        // another transaction will set.
        let sets: Vec<Vec<(String, Expr)>> = (pattern.ops.iter())
            .map(|op| match (op.kind, op.item) {
                (OpKind::Write, Some(item)) => {
                    let i = items
                        .iter()
                        .position(|&x| x == item)
                        .expect("the op's item");
                    self.assignments(rows[i].0)
                }
                _ => Vec::new(),
            })
            .collect();
        let mut steps: Vec<(u8, Stmt, &'static str)> =
            txns.iter().map(|&t| (t, Stmt::Begin, "begin")).collect();
        let mut done = vec![0usize; txns.len()];
        for (o, op) in pattern.ops.iter().enumerate() {
            let k = txns
                .iter()
                .position(|&t| t == op.txn)
                .expect("the op's transaction");
            let (stmt, kind) = match (op.kind, op.item) {
                (OpKind::Commit, _) => (Stmt::Commit, "commit"),
                (OpKind::Abort, _) => (Stmt::Rollback, "rollback"),
                (kind, Some(item)) => {
                    let i = items
                        .iter()
                        .position(|&x| x == item)
                        .expect("the op's item");
                    let (t, r) = rows[i];
                    if kind == OpKind::Read {
                        // The literal values other transactions' writes of the item set.
                        let coming: Vec<(String, Expr)> = (pattern.ops.iter().zip(&sets))
                            .filter(|(w, _)| w.item == op.item && w.txn != op.txn)
                            .flat_map(|(_, set)| set.iter().cloned())
                            .filter(|(_, value)| matches!(value, Expr::Literal(_)))
                            .collect();
                        self.read_row(t, r, &coming)
                    } else {
                        self.write_row(t, r, sets[o].clone())
                    }
                }
                (_, None) => continue,
            };
            steps.push((op.txn, stmt, kind));
            if noise[k] == Some(done[k]) {
                let (stmt, kind) = self.data_stmt();
                steps.push((op.txn, stmt, kind));
            }
            done[k] += 1;
        }
        let kinds = steps.iter().map(|(_, _, kind)| *kind).collect();
        let steps = (steps.into_iter())
            .map(|(t, stmt, _)| Step {
                session: format!("t{t}"),
                stmt: txhunt_model::Stmt::new(render(&stmt, self.dialect)),
            })
            .collect();
        GeneratedCase::assemble((init, init_kinds), (steps, kinds), Some(pattern.name))
    }

    /// `n` different initial rows of tables with a primary key and a column outside it (the
    /// column a write sets), each as its table and its place among the table's rows; `None`
    /// when the tables hold fewer.
    fn distinct_rows(&mut self, n: usize) -> Option<Vec<(usize, usize)>> {
        let mut all: Vec<(usize, usize)> = Vec::new();
        for (t, rows) in self.rows.iter().enumerate() {
            let table = &self.tables[t];
            let writable = (table.columns.iter()).any(|c| settable(table, &c.name));
            if table.primary_key.is_empty() || !writable {
                // Without a key a write would change what selects the row, and without a
                // column a write may set there is no write: the pattern would lose the item.
                continue;
            }
            let key = |row: &Vec<Value>| -> Vec<Value> {
                (table.columns.iter().zip(row))
                    .filter(|(c, _)| table.primary_key.contains(&c.name))
                    .map(|(_, v)| v.clone())
                    .collect()
            };
            let keys: Vec<Vec<Value>> = rows.iter().map(key).collect();
            all.extend(
                (0..rows.len())
                    .filter(|&r| keys.iter().filter(|k| **k == keys[r]).count() == 1)
                    .map(|r| (t, r)),
            );
        }
        if all.len() < n {
            return None;
        }
        let mut chosen = Vec::new();
        for _ in 0..n {
            chosen.push(all.swap_remove(self.rng.random_range(0..all.len())));
        }
        Some(chosen)
    }

    /// The condition that selects row `r` of table `t`: its primary key's values.
    fn row_condition(&self, t: usize, r: usize) -> Expr {
        let table = &self.tables[t];
        let row = &self.rows[t][r];
        (table.columns.iter().zip(row))
            .filter(|(c, _)| table.primary_key.contains(&c.name))
            .map(|(c, v)| Expr::col(&c.name).binary(BinOp::Eq, Expr::lit(v.clone())))
            .reduce(|a, b| a.binary(BinOp::And, b))
            .expect("a table has columns")
    }

    /// The read of row `r` of table `t`: by its key, or, with probability [`VALUE_READ`], by
    /// a column's value (a predicate read): half the time a value another transaction's write
    /// of the row sets (of `coming`; the write moves the row into the predicate: a phantom),
    /// else the value one of the row's settable columns has now (a write that changes it
    /// moves the row out).
    fn read_row(&mut self, t: usize, r: usize, coming: &[(String, Expr)]) -> (Stmt, &'static str) {
        let table = &self.tables[t];
        let settable: Vec<usize> = (0..table.columns.len())
            .filter(|&i| settable(table, &table.columns[i].name))
            .collect();
        let filter = if self.rng.random_bool(VALUE_READ) {
            if !coming.is_empty() && self.rng.random_bool(0.5) {
                let (column, value) = coming[self.rng.random_range(0..coming.len())].clone();
                Expr::col(&column).binary(BinOp::Eq, value)
            } else {
                let i = settable[self.rng.random_range(0..settable.len())];
                let column = Expr::col(&table.columns[i].name);
                match &self.rows[t][r][i] {
                    Value::Null => Expr::IsNull {
                        expr: Box::new(column),
                        negated: false,
                    },
                    v => column.binary(BinOp::Eq, Expr::lit(v.clone())),
                }
            }
        } else {
            self.row_condition(t, r)
        };
        let select = Select {
            items: vec![SelectItem::Star],
            from: self.tables[t].name.clone(),
            join: None,
            filter: Some(filter),
            group_by: Vec::new(),
            lock: None,
        };
        (Stmt::Select(select), "select")
    }

    /// A write of row `r` of table `t` that sets `set` (one or two non-key columns).
    fn write_row(&mut self, t: usize, r: usize, set: Vec<(String, Expr)>) -> (Stmt, &'static str) {
        let update = Update {
            table: self.tables[t].name.clone(),
            set,
            filter: Some(self.row_condition(t, r)),
        };
        (Stmt::Update(update), "update")
    }
}

#[cfg(test)]
mod tests {
    use crate::dialect::for_family;
    use crate::gen::{generate_guided, GenConfig};
    use txhunt_model::pattern;
    use txhunt_model::{Isolation, SqlFamily};

    /// The WHERE clause of `sql`, if it has one.
    fn condition(sql: &str) -> Option<&str> {
        sql.split_once(" WHERE ").map(|(_, w)| w)
    }

    #[test]
    fn a_lost_update_case_reads_and_writes_one_row_in_the_patterns_order() {
        let lost = pattern::by_name("lost-update").expect("a pattern");
        let dialect = for_family(SqlFamily::Postgres);
        let mut guided = 0;
        for seed in 0..40 {
            let generated = generate_guided(
                seed,
                &GenConfig::default(),
                dialect,
                (Isolation::ReadCommitted, None),
                &lost,
            );
            let case = &generated.case;
            if generated.pattern.is_none() {
                continue;
            }
            guided += 1;
            assert!(case
                .header
                .extra
                .contains(&("pattern".into(), "lost-update".into())));
            let steps: Vec<(&str, &str)> = (case.steps.iter())
                .map(|s| (s.session.as_str(), s.stmt.sql.as_str()))
                .collect();
            assert_eq!(steps[..2], [("t1", "BEGIN"), ("t2", "BEGIN")], "{steps:?}");
            // R1[x0] W2[x1] C2 W1[x2] C1: the pattern's operations, in order, all on one row.
            let at = |from: usize, session: &str, starts: &str| -> usize {
                (from..steps.len())
                    .find(|&i| steps[i].0 == session && steps[i].1.starts_with(starts))
                    .unwrap_or_else(|| {
                        panic!("no {starts} of {session} after step {from}: {steps:?}")
                    })
            };
            let read = at(2, "t1", "SELECT");
            let write2 = at(read, "t2", "UPDATE");
            let commit2 = at(write2, "t2", "COMMIT");
            let write1 = at(commit2, "t1", "UPDATE");
            let commit1 = at(write1, "t1", "COMMIT");
            assert_eq!(commit1, steps.len() - 1, "{steps:?}");
            let row = condition(steps[write2].1).expect("the write selects one row");
            assert_eq!(condition(steps[write1].1), Some(row), "{steps:?}");
            // The read selects the same row by key, or rows by one column's value.
            let read = condition(steps[read].1).expect("the read has a condition");
            assert!(read == row || !read.contains(" AND "), "{steps:?}");
        }
        assert!(
            guided >= 30,
            "only {guided} of 40 cases realised the pattern"
        );
    }

    #[test]
    fn the_same_seed_and_pattern_give_the_same_case_and_other_seeds_other_cases() {
        let dialect = for_family(SqlFamily::Sqlite);
        let make = |seed: u64, name: &str| {
            let pattern = pattern::by_name(name).expect("a pattern");
            let level = (Isolation::Serializable, None);
            generate_guided(seed, &GenConfig::default(), dialect, level, &pattern)
        };
        for name in ["dirty-read", "aptrans-12", "read-skew"] {
            assert_eq!(make(5, name), make(5, name), "{name}");
            assert_ne!(make(5, name).case, make(6, name).case, "{name}");
        }
    }

    #[test]
    fn a_pattern_on_two_items_uses_two_different_rows() {
        let skew = pattern::by_name("aptrans-37").expect("a pattern");
        let dialect = for_family(SqlFamily::Mysql);
        let mut checked = 0;
        for seed in 0..20 {
            let generated = generate_guided(
                seed,
                &GenConfig::default(),
                dialect,
                (Isolation::RepeatableRead, None),
                &skew,
            );
            // Cases with a random statement more are left out: 2 BEGINs and 6 operations.
            if generated.pattern.is_none() || generated.case.steps.len() != 8 {
                continue;
            }
            checked += 1;
            // … W2[x1] W1[y1] …: the two transactions' writes (the last UPDATE of each)
            // select different rows.
            let steps = &generated.case.steps;
            let write = |session: &str| {
                (steps.iter().rev())
                    .find(|s| s.session == session && s.stmt.sql.starts_with("UPDATE"))
                    .map(|s| condition(&s.stmt.sql).expect("a keyed write").to_string())
                    .expect("a write")
            };
            assert_ne!(write("t1"), write("t2"), "{steps:?}");
        }
        assert!(checked >= 5, "only {checked} cases without noise");
    }
}
