//! The statement-dependency-graph oracle (TxCheck, paper 002): the statements of an
//! instrumented run's committed transactions, ordered by their dependencies ([`graph`]), run
//! one after another without transactions on a fresh copy of the initial database
//! ([`sequential`]); every statement must return what it returned in the run, and the final
//! state must be the same (Theorem 1). A difference is a bug candidate unless the level's
//! documented behaviour explains it (the `permit` module).
//!
//! txhunt records which version of which row every statement read and wrote, and the exact
//! schedule, so the graph's item dependencies are exact, and no blocking scheduling (§4) is
//! needed: instrumentation runs inside each statement or right after it on its connection.

pub mod graph;
mod oracle;
mod permit;
pub mod sequential;

pub use graph::{Edge, Graph, Kind};
pub use oracle::{judge, label_steps, NotJudged, Sdg, Verdict, DECYCLE_ROUNDS, SEQUENTIAL_RUNS};
