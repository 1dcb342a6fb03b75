//! txhunt's test oracles: judges of a history. A [`Finding`] is an oracle's verdict that
//! something is wrong, with its evidence.
//!
//! * [`explicit`]: the errors a DBMS reports about itself (crashes, internal errors, hangs);
//! * [`wss`]: write-specific serializability (WriteCheck): the concurrent schedule must end in
//!   the same state, and its writes succeed or fail the same way, as the FCRFS serial
//!   schedule re-executed on a fresh copy of the initial database;
//! * [`differential`]: differential testing (DT²): the same case on two targets of one
//!   family must block, fail, answer and end the same way;
//! * [`dsg`]: Adya's phenomena (G0 … G2) in the direct serialization graph of an instrumented
//!   run, each a bug candidate where the profile's level guarantee forbids it;
//! * [`sdg`]: TxCheck's statement dependency graph: an instrumented run's statements re-run
//!   one after another in a topological order of their dependencies must return what they
//!   returned and end in the same state;
//! * [`invariant`]: the stress workloads' invariants, from returned data alone;
//! * [`realtime`]: real-time order in a stress run (no stale reads).
//!
//! Every oracle implements [`Oracle`] and is found by its [`OracleId`] ([`by_names`]). Those
//! that re-execute derived cases do so through a [`Runner`]; what a DBMS documents about its
//! levels reaches them as the profile's claims, which [`permit`] turns into what an oracle
//! may excuse.

pub mod differential;
pub mod dsg;
mod evidence;
pub mod explicit;
mod finding;
pub mod invariant;
pub mod permit;
pub mod realtime;
pub mod sdg;
pub mod wss;

pub use evidence::{Dependency, Detail, Observed};
pub use finding::{
    Difference, Divergence, Excuse, Finding, Judged, OracleId, Permissible, SerialLevel, Signature,
    Unjudged, UnknownOracle, UnknownSignature,
};

use txhunt_db::profile::claim::Claim;
use txhunt_db::profile::semantics::Semantics;
use txhunt_exec::Runner;
use txhunt_model::{History, Outcome, TestCase};

/// One target's run of a case, as an oracle that compares targets sees it.
#[derive(Debug, Clone, Copy)]
pub struct Run<'a> {
    /// The target's label, e.g. `postgres 15.19`.
    pub label: &'a str,
    /// The run.
    pub history: &'a History,
    /// The concurrency-control semantics the target claims ([`txhunt_db::Profile::semantics`]).
    pub semantics: &'a Semantics,
    /// What the target documents for the run's isolation level ([`txhunt_db::Profile::claims`]).
    pub claims: &'static [Claim],
    /// The oracles that judged this run on its own.
    pub judged_by: &'a [OracleId],
    /// What they found.
    pub findings: &'a [Finding],
}

/// Which of the two compared targets to re-run ([`Oracle::compare`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The first target, whose run the other is compared with.
    First,
    /// The target of the run compared with the first.
    Other,
}

/// A judge of executions. An oracle judges one run ([`Oracle::check`]), or compares a run
/// with the first target's run of the same case ([`Oracle::compare`]), or both; what it does
/// not do returns nothing.
pub trait Oracle: Send + Sync {
    /// The oracle's id.
    fn id(&self) -> OracleId;
    /// Whether it compares runs on different targets (and so has nothing to say about one
    /// target's run on its own).
    fn compares_targets(&self) -> bool {
        false
    }
    /// Judges `history`, an execution of `case`; may execute derived cases through `runner`.
    fn check(&self, _case: &TestCase, _history: &History, _runner: &dyn Runner) -> Judged {
        Judged::default()
    }
    /// Judges `other` against `first`, the first target's run of `case`; `rerun(target)`
    /// executes `case` again on the first target or on `other`'s (`None` when it could not
    /// run).
    fn compare(
        &self,
        _case: &TestCase,
        _first: Run<'_>,
        _other: Run<'_>,
        _rerun: &mut dyn FnMut(Side) -> Option<History>,
    ) -> Judged {
        Judged::default()
    }
}

/// The oracle `id` names.
pub fn oracle(id: OracleId) -> Box<dyn Oracle> {
    match id {
        OracleId::Explicit => Box::new(explicit::Explicit),
        OracleId::Wss => Box::new(wss::Wss),
        OracleId::Differential => Box::new(differential::Differential),
        OracleId::Dsg => Box::new(dsg::Adya),
        OracleId::Sdg => Box::new(sdg::Sdg),
    }
}

/// The ids of the oracles a comma list names (`explicit,wss`); an error names the accepted
/// ones.
pub fn ids(list: &str) -> Result<Vec<OracleId>, UnknownOracle> {
    list.split(',').map(|name| name.trim().parse()).collect()
}

/// The oracles a comma list names (see [`ids`]).
pub fn by_names(list: &str) -> Result<Vec<Box<dyn Oracle>>, UnknownOracle> {
    Ok(ids(list)?.into_iter().map(oracle).collect())
}

/// Whether two outcomes returned the same rows (as bags), or neither returned rows.
pub(crate) fn same_rows(a: &Outcome, b: &Outcome) -> bool {
    match (a, b) {
        (Outcome::Rows { rows: x, .. }, Outcome::Rows { rows: y, .. }) => {
            let (mut x, mut y) = (x.clone(), y.clone());
            x.sort();
            y.sort();
            x == y
        }
        (Outcome::Rows { .. }, _) | (_, Outcome::Rows { .. }) => false,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oracles_are_chosen_by_name() {
        let ids: Vec<OracleId> = by_names("wss, explicit,differential,dsg")
            .unwrap()
            .iter()
            .map(|o| o.id())
            .collect();
        assert_eq!(
            ids,
            [
                OracleId::Wss,
                OracleId::Explicit,
                OracleId::Differential,
                OracleId::Dsg
            ]
        );
        assert_eq!(
            by_names("dt2").err().unwrap().to_string(),
            "unknown oracle 'dt2'; accepted: explicit, wss, differential, dsg, sdg"
        );
    }
}
