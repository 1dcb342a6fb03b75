//! Seeded generators of test cases (paper 000 §4.1, paper 001 §3.4 and §5.1–5.2, paper 002 §4).
//!
//! The same seed gives the same case on every machine (ChaCha8). A case has 1–3 tables of 1–6
//! columns with constraints and indexes, up to 15 rows each, and 1–5 transactions of 1–5
//! statements, explicit or autocommit, one session each, in a random submitted order. Constants
//! are taken from the existing data about half the time, so that predicates hit rows; no write
//! depends on a value read earlier in its transaction (paper 001 §2.2).
//!
//! In *instrumentable* mode (paper 002 §3.2) every table has a primary-key column `<t>_pk` and
//! a version column `<t>_ver`; every write installs a fresh, unique version and every read
//! returns the primary key and version of the rows it reads.

mod data;
mod expr;
pub mod guided;
mod schema;
mod stmt;
mod txn;
pub mod workload;

use crate::dialect::Dialect;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use txhunt_model::pattern::Pattern;
use txhunt_model::{Isolation, Mode};

pub use txn::GeneratedCase;

/// Sizes and switches of the generators; the defaults are the papers' values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GenConfig {
    /// Most tables per case (DT²: 3).
    pub max_tables: usize,
    /// Most columns per table (DT²: 4; up to 6 here).
    pub max_columns: usize,
    /// Most rows per table initially (DT²: 5; ~15 here).
    pub max_rows: usize,
    /// Most transactions per case (WriteCheck: 5).
    pub max_txns: usize,
    /// Most data statements per transaction (WriteCheck: 5).
    pub max_stmts: usize,
    /// Primary key and version column in every table, fresh versions on every write.
    pub instrumentable: bool,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            max_tables: 3,
            max_columns: 6,
            max_rows: 15,
            max_txns: 5,
            max_stmts: 5,
            instrumentable: false,
        }
    }
}

/// Generates one test case from `seed`, for `dialect`, at `isolation` and `mode`.
pub fn generate(
    seed: u64,
    config: &GenConfig,
    dialect: &'static dyn Dialect,
    isolation: Isolation,
    mode: Option<Mode>,
) -> GeneratedCase {
    generate_with(seed, config, dialect, (isolation, mode), Gen::case)
}

/// Generates one test case from `seed` guided by `pattern` (APTrans; see [`guided`]): its
/// operations on shared rows in its schedule order, the rest random. A case whose tables
/// hold too few rows for the pattern's items is a random one
/// ([`GeneratedCase::pattern`] is then `None`).
pub fn generate_guided(
    seed: u64,
    config: &GenConfig,
    dialect: &'static dyn Dialect,
    (isolation, mode): (Isolation, Option<Mode>),
    pattern: &Pattern,
) -> GeneratedCase {
    generate_with(seed, config, dialect, (isolation, mode), |gen| {
        gen.guided_case(pattern)
    })
}

/// A case `make` generates from `seed`, with its header filled in.
fn generate_with(
    seed: u64,
    config: &GenConfig,
    dialect: &'static dyn Dialect,
    (isolation, mode): (Isolation, Option<Mode>),
    make: impl FnOnce(&mut Gen) -> GeneratedCase,
) -> GeneratedCase {
    let mut gen = Gen::new(seed, config, dialect);
    let mut case = make(&mut gen);
    case.case.header.isolation = vec![isolation];
    case.case.header.mode = mode;
    case.case
        .header
        .extra
        .push(("seed".into(), seed.to_string()));
    if let Some(pattern) = case.pattern {
        case.case
            .header
            .extra
            .push(("pattern".into(), pattern.to_string()));
    }
    case
}

/// The generators' shared state: the random stream, the dialect, the sizes.
pub(crate) struct Gen {
    pub rng: ChaCha8Rng,
    pub dialect: &'static dyn Dialect,
    pub config: GenConfig,
    /// The next fresh version number (instrumentable mode).
    pub next_version: i64,
    /// The schema generated so far.
    pub tables: Vec<crate::ast::Table>,
    /// The initial rows of each table (constants are drawn from them).
    pub rows: Vec<Vec<Vec<txhunt_model::Value>>>,
}

impl Gen {
    /// A generator seeded `seed`, with no schema yet.
    pub fn new(seed: u64, config: &GenConfig, dialect: &'static dyn Dialect) -> Gen {
        Gen {
            rng: ChaCha8Rng::seed_from_u64(seed),
            dialect,
            config: *config,
            next_version: 1,
            tables: Vec::new(),
            rows: Vec::new(),
        }
    }

    /// A fresh version number.
    pub fn fresh_version(&mut self) -> i64 {
        let v = self.next_version;
        self.next_version += 1;
        v
    }
}
