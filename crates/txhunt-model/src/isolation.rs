//! Isolation levels and concurrency-control modes.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A transaction isolation level, by the name txhunt uses for it on every target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Isolation {
    /// READ UNCOMMITTED.
    ReadUncommitted,
    /// READ COMMITTED.
    ReadCommitted,
    /// REPEATABLE READ.
    RepeatableRead,
    /// SNAPSHOT (for engines that name it, e.g. Turso's MVCC mode, SQL Server).
    Snapshot,
    /// SERIALIZABLE.
    Serializable,
}

impl Isolation {
    /// Every level, weakest first.
    pub const ALL: [Isolation; 5] = [
        Isolation::ReadUncommitted,
        Isolation::ReadCommitted,
        Isolation::RepeatableRead,
        Isolation::Snapshot,
        Isolation::Serializable,
    ];

    /// The name txhunt prints and accepts: `read-uncommitted`, …, `serializable`.
    pub fn name(self) -> &'static str {
        match self {
            Isolation::ReadUncommitted => "read-uncommitted",
            Isolation::ReadCommitted => "read-committed",
            Isolation::RepeatableRead => "repeatable-read",
            Isolation::Snapshot => "snapshot",
            Isolation::Serializable => "serializable",
        }
    }

    /// The SQL spelling: `READ UNCOMMITTED`, …, `SERIALIZABLE`.
    pub fn sql(self) -> &'static str {
        match self {
            Isolation::ReadUncommitted => "READ UNCOMMITTED",
            Isolation::ReadCommitted => "READ COMMITTED",
            Isolation::RepeatableRead => "REPEATABLE READ",
            Isolation::Snapshot => "SNAPSHOT",
            Isolation::Serializable => "SERIALIZABLE",
        }
    }

    /// The accepted names, for error messages.
    pub fn accepted_names() -> String {
        Isolation::ALL.map(Isolation::name).join(", ")
    }
}

impl fmt::Display for Isolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An isolation level name that txhunt does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown isolation level '{0}'; accepted: {accepted}", accepted = Isolation::accepted_names())]
pub struct UnknownIsolation(pub String);

impl FromStr for Isolation {
    type Err = UnknownIsolation;

    /// Accepts the canonical names, their SQL spellings (`READ COMMITTED`, `read_committed`) and
    /// the usual abbreviations (`RU`, `RC`, `RR`, `SI`, `SER`), in any case.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let key: String = text
            .trim()
            .chars()
            .filter(|c| !matches!(c, '-' | '_' | ' '))
            .collect::<String>()
            .to_ascii_lowercase();
        Ok(match key.as_str() {
            "readuncommitted" | "ru" => Isolation::ReadUncommitted,
            "readcommitted" | "rc" => Isolation::ReadCommitted,
            "repeatableread" | "rr" => Isolation::RepeatableRead,
            "snapshot" | "si" | "snapshotisolation" => Isolation::Snapshot,
            "serializable" | "ser" | "sr" => Isolation::Serializable,
            _ => return Err(UnknownIsolation(text.trim().to_string())),
        })
    }
}

/// Concurrency-control mode, for engines that offer both (TiDB).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Locks are taken when data is accessed; conflicting statements wait.
    Pessimistic,
    /// Conflicts are detected at commit time.
    Optimistic,
}

impl Mode {
    /// The name txhunt prints and accepts.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Pessimistic => "pessimistic",
            Mode::Optimistic => "optimistic",
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Mode {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.trim().to_ascii_lowercase().as_str() {
            "pessimistic" => Ok(Mode::Pessimistic),
            "optimistic" => Ok(Mode::Optimistic),
            other => Err(format!(
                "unknown mode '{other}'; accepted: pessimistic, optimistic"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_spelling() {
        for level in Isolation::ALL {
            assert_eq!(level.name().parse::<Isolation>(), Ok(level));
            assert_eq!(level.sql().parse::<Isolation>(), Ok(level));
        }
        assert_eq!("RC".parse::<Isolation>(), Ok(Isolation::ReadCommitted));
        assert_eq!(
            "read_committed".parse::<Isolation>(),
            Ok(Isolation::ReadCommitted)
        );
    }

    #[test]
    fn unknown_level_names_the_accepted_ones() {
        let err = "chaos".parse::<Isolation>().unwrap_err().to_string();
        assert!(
            err.contains("'chaos'") && err.contains("repeatable-read"),
            "{err}"
        );
    }
}
