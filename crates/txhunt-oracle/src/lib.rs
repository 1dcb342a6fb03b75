//! txhunt's test oracles: judges of a history. A [`Finding`] is an oracle's verdict that
//! something is wrong, with its evidence.
//!
//! * [`explicit`]: the errors a DBMS reports about itself (crashes, internal errors, hangs);
//! * [`wss`]: write-specific serializability (WriteCheck): the concurrent schedule must end in
//!   the same state, and its writes succeed or fail the same way, as the FCRFS serial
//!   schedule re-executed on a fresh copy of the initial database;
//! * [`differential`]: differential testing (DT²): the same case on two targets of one
//!   family must block, fail, answer and end the same way.
//!
//! Every oracle implements [`Oracle`]; those that re-execute derived cases do so through a
//! [`Runner`].

pub mod differential;
pub mod explicit;
pub mod wss;

use serde::{Deserialize, Serialize};
use txhunt_exec::Runner;
use txhunt_model::{History, Outcome, TestCase};

/// A judge of one execution.
pub trait Oracle {
    /// The oracle's name, as findings and `--oracle` name it.
    fn name(&self) -> &'static str;
    /// Judges `history`, an execution of `case`; may execute derived cases through `runner`.
    fn check(&self, case: &TestCase, history: &History, runner: &dyn Runner) -> Vec<Finding>;
}

/// The oracles a comma list names (`explicit`, `wss`); an error names the accepted ones.
pub fn by_names(list: &str) -> Result<Vec<Box<dyn Oracle + Send + Sync>>, String> {
    list.split(',')
        .map(|name| -> Result<Box<dyn Oracle + Send + Sync>, String> {
            match name.trim() {
                explicit::NAME => Ok(Box::new(explicit::Explicit)),
                wss::NAME => Ok(Box::new(wss::Wss)),
                other => Err(format!("unknown oracle '{other}'; accepted: explicit, wss")),
            }
        })
        .collect()
}

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
    /// The evidence, one line each (states side by side, diverging statements, serial order).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<String>,
    /// Set when a documented behaviour of the DBMS explains the finding: it is permissible,
    /// not a bug candidate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permissible: Option<Permissible>,
}

impl Finding {
    /// Whether the finding is a bug candidate (no documented behaviour explains it).
    pub fn is_candidate(&self) -> bool {
        self.permissible.is_none()
    }
}

/// The documented behaviour that explains a finding, and the re-executions that showed it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Permissible {
    /// The behaviour's name, e.g. `semi-consistent-read`.
    pub behaviour: String,
    /// What the DBMS does, in one line.
    pub reason: String,
    /// Where the DBMS documents it.
    pub source: String,
    /// What the re-executions showed, one line each.
    pub evidence: Vec<String>,
    /// The behaviours tried before it and why each does not explain the finding.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ruled_out: Vec<String>,
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
        let names: Vec<&str> = by_names("wss, explicit")
            .unwrap()
            .iter()
            .map(|o| o.name())
            .collect();
        assert_eq!(names, ["wss", "explicit"]);
        assert_eq!(
            by_names("dt2").err().unwrap(),
            "unknown oracle 'dt2'; accepted: explicit, wss"
        );
    }
}
