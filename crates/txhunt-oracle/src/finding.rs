//! What oracles say: [`Finding`]s with typed [`Signature`]s, and what explains a finding when a
//! documented behaviour or design difference does ([`Permissible`]).

use crate::Detail;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use txhunt_model::adya::Phenomenon;

/// The oracles txhunt has, as `--oracle` and findings name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OracleId {
    /// Errors the DBMS reports about itself ([`crate::explicit`]).
    Explicit,
    /// Write-specific serializability ([`crate::wss`]).
    Wss,
    /// Differential testing between targets ([`crate::differential`]).
    Differential,
    /// Adya's phenomena in the direct serialization graph ([`crate::dsg`]).
    Dsg,
    /// The statement dependency graph's sequential order (TxCheck, [`crate::sdg`]).
    Sdg,
}

impl OracleId {
    /// Every oracle, in the order `--oracle` lists them.
    pub const ALL: [OracleId; 5] = [
        OracleId::Explicit,
        OracleId::Wss,
        OracleId::Differential,
        OracleId::Dsg,
        OracleId::Sdg,
    ];

    /// The oracle's name: `explicit`, `wss`, `differential`, `dsg`, `sdg`.
    pub fn name(self) -> &'static str {
        match self {
            OracleId::Explicit => "explicit",
            OracleId::Wss => "wss",
            OracleId::Differential => "differential",
            OracleId::Dsg => "dsg",
            OracleId::Sdg => "sdg",
        }
    }

    /// Whether the oracle may execute derived cases of its own (serial schedules, sequential
    /// orders, questions about row versions): such oracles are worth running at once.
    pub fn re_executes(self) -> bool {
        matches!(
            self,
            OracleId::Wss | OracleId::Differential | OracleId::Dsg | OracleId::Sdg
        )
    }

    /// Whether the oracle needs the run's read/write history (an instrumented run).
    pub fn needs_history(self) -> bool {
        matches!(self, OracleId::Dsg | OracleId::Sdg)
    }
}

impl fmt::Display for OracleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An oracle name that is not one of [`OracleId::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown oracle '{0}'; accepted: explicit, wss, differential, dsg, sdg")]
pub struct UnknownOracle(pub String);

impl FromStr for OracleId {
    type Err = UnknownOracle;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        OracleId::ALL
            .into_iter()
            .find(|o| o.name() == s)
            .ok_or_else(|| UnknownOracle(s.to_string()))
    }
}

/// Which serial schedule a WSS finding compares against (paper 001 §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SerialLevel {
    /// Whole transactions in FCRFS order (`tx-wss`).
    #[serde(rename = "tx-wss")]
    Transaction,
    /// The committed transactions' statements as autocommit statements (`stmt-wss`).
    #[serde(rename = "stmt-wss")]
    Statement,
}

impl SerialLevel {
    /// `tx-wss` or `stmt-wss`.
    pub fn name(self) -> &'static str {
        match self {
            SerialLevel::Transaction => "tx-wss",
            SerialLevel::Statement => "stmt-wss",
        }
    }
}

/// What a WSS or SDG finding saw differ from the serial or sequential order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Divergence {
    /// The final database state.
    FinalState,
    /// Whether committed writes succeeded.
    Write,
    /// The rows committed locking reads returned.
    Read,
}

impl Divergence {
    /// `final-state`, `write` or `read`.
    pub fn name(self) -> &'static str {
        match self {
            Divergence::FinalState => "final-state",
            Divergence::Write => "write",
            Divergence::Read => "read",
        }
    }
}

/// What kind of difference between two targets the differential oracle reports (DT² §4.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Difference {
    /// One statement blocked where the other did not, or the schedules took other steps.
    Blocking,
    /// A deadlock in one target only.
    Deadlock,
    /// An error in one target only, or errors of different classes.
    Error,
    /// Different query results or affected-row counts.
    Result,
    /// Different final database states.
    FinalState,
}

impl Difference {
    /// `blocking`, `deadlock`, `error`, `result` or `final-state`.
    pub fn name(self) -> &'static str {
        match self {
            Difference::Blocking => "blocking",
            Difference::Deadlock => "deadlock",
            Difference::Error => "error",
            Difference::Result => "result",
            Difference::FinalState => "final-state",
        }
    }
}

/// What fired, stable across runs: findings with equal signatures are duplicates.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Signature {
    /// An internal error, with the DBMS's code (`internal:1815`).
    Internal {
        /// The error code, `?` when the DBMS gave none.
        code: String,
    },
    /// A lost connection (`connection`).
    Connection,
    /// A statement that did not end within the statement timeout, running or waiting in a
    /// lock-wait cycle the DBMS did not break (`hang`).
    Hang,
    /// A WSS violation (`tx-wss:final-state`).
    Wss(SerialLevel, Divergence),
    /// A difference between two targets (`blocking`).
    Differential(Difference),
    /// An Adya phenomenon (`dsg:G-single`).
    Dsg(Phenomenon),
    /// A difference from the statement dependency graph's sequential order (`sdg:read`).
    Sdg(Divergence),
}

impl Signature {
    /// The oracle that reports this kind of finding.
    pub fn oracle(&self) -> OracleId {
        match self {
            Signature::Internal { .. } | Signature::Connection | Signature::Hang => {
                OracleId::Explicit
            }
            Signature::Wss(..) => OracleId::Wss,
            Signature::Differential(_) => OracleId::Differential,
            Signature::Dsg(_) => OracleId::Dsg,
            Signature::Sdg(_) => OracleId::Sdg,
        }
    }
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Signature::Internal { code } => write!(f, "internal:{code}"),
            Signature::Connection => f.write_str("connection"),
            Signature::Hang => f.write_str("hang"),
            Signature::Wss(level, what) => write!(f, "{}:{}", level.name(), what.name()),
            Signature::Differential(d) => f.write_str(d.name()),
            Signature::Dsg(p) => write!(f, "dsg:{}", p.name()),
            Signature::Sdg(what) => write!(f, "sdg:{}", what.name()),
        }
    }
}

/// A signature's text that names no known finding.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown finding signature '{0}'")]
pub struct UnknownSignature(pub String);

impl FromStr for Signature {
    type Err = UnknownSignature;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let unknown = || UnknownSignature(s.to_string());
        if let Some(code) = s.strip_prefix("internal:") {
            return Ok(Signature::Internal { code: code.into() });
        }
        if let Some(name) = s.strip_prefix("dsg:") {
            return name.parse().map(Signature::Dsg).map_err(|_| unknown());
        }
        let differences = [
            Difference::Blocking,
            Difference::Deadlock,
            Difference::Error,
            Difference::Result,
            Difference::FinalState,
        ];
        match s {
            "connection" => return Ok(Signature::Connection),
            "hang" => return Ok(Signature::Hang),
            _ => {}
        }
        if let Some(d) = differences.into_iter().find(|d| d.name() == s) {
            return Ok(Signature::Differential(d));
        }
        let (level, what) = s.split_once(':').ok_or_else(unknown)?;
        let what = [Divergence::FinalState, Divergence::Write, Divergence::Read]
            .into_iter()
            .find(|d| d.name() == what)
            .ok_or_else(unknown)?;
        if level == "sdg" {
            return Ok(Signature::Sdg(what));
        }
        let level = [SerialLevel::Transaction, SerialLevel::Statement]
            .into_iter()
            .find(|l| l.name() == level)
            .ok_or_else(unknown)?;
        Ok(Signature::Wss(level, what))
    }
}

impl Serialize for Signature {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Signature {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// An oracle's verdict that something is wrong.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    /// The oracle that fired.
    pub oracle: OracleId,
    /// What fired, stable across runs, for deduplication.
    pub signature: Signature,
    /// One line for humans.
    pub summary: String,
    /// The steps (indices into the case's steps) the evidence is about.
    pub steps: Vec<usize>,
    /// The evidence (serial order, states side by side, diverging statements, behaviours
    /// ruled out).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<Detail>,
    /// Set when a documented behaviour of the DBMS (or a design difference between two
    /// targets) explains the finding: it is not a bug candidate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permissible: Option<Permissible>,
}

impl Finding {
    /// A finding no behaviour explains (yet), of the oracle its signature belongs to.
    pub fn new(signature: Signature, summary: String, steps: Vec<usize>) -> Self {
        Finding {
            oracle: signature.oracle(),
            signature,
            summary,
            steps,
            details: Vec::new(),
            permissible: None,
        }
    }

    /// Whether the finding is a bug candidate (no documented behaviour explains it).
    pub fn is_candidate(&self) -> bool {
        self.permissible.is_none()
    }

    /// Whether the finding is a phenomenon the isolation level lets through
    /// ([`Excuse::Allowed`]).
    pub fn is_allowed(&self) -> bool {
        self.permissible
            .as_ref()
            .is_some_and(|p| p.excuse == Excuse::Allowed)
    }
}

/// How an explained finding is filed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Excuse {
    /// A behaviour the DBMS documents for the isolation level.
    Permissible,
    /// A documented design difference between two targets (paper 000 §6.1).
    Compatibility,
    /// The first target, re-run, did what the second did.
    Nondeterministic,
    /// An Adya phenomenon the isolation level lets through, as the DBMS documents: observed,
    /// counted, not saved.
    Allowed,
}

/// The documented behaviour that explains a finding, and the re-executions that showed it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Permissible {
    /// How the finding is filed.
    pub excuse: Excuse,
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

/// An oracle that could not judge a run: a derived case it needed could not be executed (the
/// server was lost, a connection refused), or the run lies outside what the oracle can judge.
/// No verdict either way, and never a bug candidate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unjudged {
    /// The oracle.
    pub oracle: OracleId,
    /// Why, as a class a campaign counts: `None` when a derived case could not run, otherwise
    /// what put the run out of the oracle's reach (`untracked`, `cyclic`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// What it could not do, and why.
    pub reason: String,
}

/// What one oracle said about one run (or pair of runs).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Judged {
    /// Its findings.
    pub findings: Vec<Finding>,
    /// What it could not judge.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unjudged: Vec<Unjudged>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_read_back_from_their_text() {
        for text in [
            "internal:1815",
            "connection",
            "hang",
            "tx-wss:final-state",
            "stmt-wss:write",
            "tx-wss:read",
            "blocking",
            "final-state",
            "dsg:G-single",
            "dsg:G2-item",
            "sdg:read",
            "sdg:final-state",
        ] {
            let signature: Signature = text.parse().unwrap();
            assert_eq!(signature.to_string(), text);
        }
        assert!("tx-wss:nothing".parse::<Signature>().is_err());
        assert_eq!(
            "dt2".parse::<OracleId>().unwrap_err().to_string(),
            "unknown oracle 'dt2'; accepted: explicit, wss, differential, dsg, sdg"
        );
    }
}
