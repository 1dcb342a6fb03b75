//! txhunt's test oracles: judges of a history. A [`Finding`] is an oracle's verdict that
//! something is wrong, with its evidence.
//!
//! Today: [`explicit`], the errors a DBMS reports about itself (crashes, internal errors,
//! hangs). The oracles that re-execute derived cases (WSS, differential, graphs) come next.

pub mod explicit;

use serde::{Deserialize, Serialize};

/// An oracle's verdict that something is wrong.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    /// The oracle that fired, e.g. `explicit`.
    pub oracle: String,
    /// What fired, stable across runs, for deduplication (e.g. `internal:1815`, `hang`).
    pub signature: String,
    /// One line for humans.
    pub summary: String,
    /// The steps (indices into the case's steps) the evidence is about.
    pub steps: Vec<usize>,
}
