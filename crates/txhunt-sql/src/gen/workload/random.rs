//! The `random` stress workload: the random case generator's schema, indexes and rows for
//! the run's seed (at most `keys` rows a table: a small hot key space), and per session and
//! transaction number an explicit transaction of the generator's data statements over them,
//! always committed (aborts come from the DBMS's errors). A replacing INSERT (`REPLACE`,
//! `INSERT OR REPLACE`) becomes a plain one: instrumentation does not track it (the rows it
//! deletes are not reported alike everywhere), and one untracked write takes its table out of
//! the DSG oracle's graph for the whole run.

use crate::ast::{Conflict, Stmt};
use crate::dialect::{for_family, Dialect};
use crate::gen::{Gen, GenConfig};
use crate::render::render;
use txhunt_model::{SqlFamily, Value};

/// The generated schema and rows of one run, and its transactions.
#[derive(Clone)]
pub(super) struct Random {
    dialect: &'static dyn Dialect,
    config: GenConfig,
    tables: Vec<crate::ast::Table>,
    rows: Vec<Vec<Vec<Value>>>,
    setup: Vec<String>,
}

impl Random {
    /// The schema and rows the generator makes from `seed` for `family`, with at most `keys`
    /// rows a table.
    pub(super) fn new(family: SqlFamily, keys: usize, seed: u64) -> Random {
        let config = GenConfig {
            max_rows: keys.max(1),
            ..GenConfig::default()
        };
        let mut gen = Gen::new(seed, &config, for_family(family));
        let (init, _) = gen.setup();
        Random {
            dialect: gen.dialect,
            config,
            tables: gen.tables,
            rows: gen.rows,
            setup: init.into_iter().map(|s| s.sql).collect(),
        }
    }

    /// The setup statements: tables, indexes, rows.
    pub(super) fn setup(&self) -> Vec<String> {
        self.setup.clone()
    }

    /// The transaction whose random stream is seeded `seed`: BEGIN, the generator's data
    /// statements (now and then a savepoint rolled back to), COMMIT.
    pub(super) fn txn(&self, seed: u64) -> Vec<String> {
        let mut gen = Gen::new(seed, &self.config, self.dialect);
        gen.tables = self.tables.clone();
        gen.rows = self.rows.clone();
        let mut statements = vec![render(&Stmt::Begin, self.dialect)];
        for (mut stmt, _) in gen.explicit_body() {
            if let Stmt::Insert(insert) = &mut stmt {
                if matches!(insert.conflict, Conflict::Replace) {
                    insert.conflict = Conflict::Fail;
                }
            }
            statements.push(render(&stmt, self.dialect));
        }
        statements.push(render(&Stmt::Commit, self.dialect));
        statements
    }
}
