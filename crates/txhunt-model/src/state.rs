//! The contents of a database: a sorted bag of rows per table.

use crate::value::{format_rows, Row};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// A database's contents, as bags of rows per table in a canonical order, so that two states
/// compare equal exactly when every table holds the same rows the same number of times.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DbState {
    tables: BTreeMap<String, Vec<Row>>,
}

impl DbState {
    /// An empty state.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a table; its name is lower-cased (SQL names are case-insensitive) and its rows sorted.
    pub fn insert(&mut self, table: &str, mut rows: Vec<Row>) {
        rows.sort();
        self.tables.insert(table.to_ascii_lowercase(), rows);
    }

    /// Adds a table read with `SELECT *`, whose columns are named `columns`, without
    /// instrumentation's hidden columns ([`crate::access::is_hidden`]). The hidden columns are
    /// found by name, not position: a column a case adds later (`ALTER TABLE … ADD COLUMN`)
    /// lands after them. So a final state holds the user's data only, whether or not the run
    /// was instrumented; a table of a case must not name a column `txh_…` of its own.
    pub fn insert_visible<C: AsRef<str>>(&mut self, table: &str, columns: &[C], rows: Vec<Row>) {
        let hidden = |c: &C| crate::access::is_hidden(c.as_ref());
        if !columns.iter().any(hidden) {
            return self.insert(table, rows);
        }
        let keep: Vec<usize> = (0..columns.len())
            .filter(|&i| !hidden(&columns[i]))
            .collect();
        let rows = rows
            .into_iter()
            .map(|row| keep.iter().filter_map(|&i| row.get(i).cloned()).collect())
            .collect();
        self.insert(table, rows);
    }

    /// The rows of a table (any case), if the table exists.
    pub fn table(&self, name: &str) -> Option<&[Row]> {
        self.tables
            .get(&name.to_ascii_lowercase())
            .map(Vec::as_slice)
    }

    /// The state with every value in its [`crate::Value::canonical`] form: two engines' states
    /// hold the same SQL values exactly when their canonical states are equal.
    pub fn canonical(&self) -> DbState {
        let mut state = DbState::new();
        for (name, rows) in &self.tables {
            state.insert(name, canonical_rows(rows));
        }
        state
    }

    /// Tables and their rows, by name.
    pub fn tables(&self) -> impl Iterator<Item = (&str, &[Row])> {
        self.tables.iter().map(|(n, r)| (n.as_str(), r.as_slice()))
    }
}

/// `rows` with every value in its [`crate::Value::canonical`] form.
pub fn canonical_rows(rows: &[Row]) -> Vec<Row> {
    rows.iter()
        .map(|row| row.iter().map(crate::Value::canonical).collect())
        .collect()
}

impl fmt::Display for DbState {
    /// One line per table: `t = [(1, 10), (2, 20)]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, rows) in &self.tables {
            writeln!(f, "{name} = {}", format_rows(rows))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Value::{Int, Null};

    #[test]
    fn hidden_columns_are_left_out_by_name_wherever_they_stand() {
        let mut state = DbState::new();
        // Column `w` was added after the hidden columns.
        let columns = ["k", "v", "txh_rid", "TXH_VER", "txh_prev", "w"];
        let row = vec![Int(1), Int(10), Int(7), Int(-2097152), Null, Null];
        state.insert_visible("T", &columns, vec![row]);
        assert_eq!(state.table("t"), Some(&[vec![Int(1), Int(10), Null]][..]));
    }

    #[test]
    fn a_table_without_hidden_columns_keeps_every_column() {
        let mut state = DbState::new();
        let rows = vec![vec![Int(2), Null], vec![Int(1), Int(3)]];
        state.insert_visible("t", &["a", "txn"], rows);
        let sorted = [vec![Int(1), Int(3)], vec![Int(2), Null]];
        assert_eq!(state.table("t"), Some(&sorted[..]));
    }
}
