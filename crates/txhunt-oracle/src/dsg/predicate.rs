//! Predicate anti-dependencies (work in progress).

use super::cycles::{self, Search};
use super::{Dsg, Transactions};
use std::time::Duration;
use txhunt_exec::Runner;
use txhunt_model::{History, TestCase};

/// The cycles of `dsg` with the predicate anti-dependencies that close them.
pub fn search(
    _case: &TestCase,
    _history: &History,
    _txns: &Transactions,
    dsg: &mut Dsg,
    _runner: &dyn Runner,
    budget: Duration,
) -> Search {
    cycles::search(dsg, budget)
}
