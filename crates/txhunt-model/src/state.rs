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
