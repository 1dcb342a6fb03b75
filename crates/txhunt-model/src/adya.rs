//! Adya's isolation phenomena (as paper 003 §5.4 restates them): the names txhunt's
//! dependency-graph oracle reports, profiles' level guarantees allow or forbid, and findings
//! carry in their signatures.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// An Adya phenomenon: a kind of cycle (or read) in a history's direct serialization graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Phenomenon {
    /// Write cycle: a cycle of write dependencies (ww).
    G0,
    /// Aborted read: a committed transaction read a version an aborted one installed.
    G1a,
    /// Intermediate read: a committed transaction read a version its installer overwrote.
    G1b,
    /// Circular information flow: a cycle of write and read dependencies (ww, wr).
    G1c,
    /// Single anti-dependency cycle: exactly one anti-dependency (rw), item or predicate.
    GSingle,
    /// Item anti-dependency cycle: anti-dependencies, all of them item ones.
    G2Item,
    /// Anti-dependency cycle: anti-dependencies, item or predicate.
    G2,
}

impl Phenomenon {
    /// Every phenomenon, most severe first.
    pub const ALL: [Phenomenon; 7] = [
        Phenomenon::G0,
        Phenomenon::G1a,
        Phenomenon::G1b,
        Phenomenon::G1c,
        Phenomenon::GSingle,
        Phenomenon::G2Item,
        Phenomenon::G2,
    ];

    /// The phenomenon's name as Adya writes it: `G0`, `G1a`, `G1b`, `G1c`, `G-single`,
    /// `G2-item`, `G2`.
    pub fn name(self) -> &'static str {
        match self {
            Phenomenon::G0 => "G0",
            Phenomenon::G1a => "G1a",
            Phenomenon::G1b => "G1b",
            Phenomenon::G1c => "G1c",
            Phenomenon::GSingle => "G-single",
            Phenomenon::G2Item => "G2-item",
            Phenomenon::G2 => "G2",
        }
    }

    /// The phenomena a cycle of this class also is (Adya's inclusions: a G0 cycle is a G1c
    /// cycle; a G-single cycle is a G2 cycle, and a G2-item one when its anti-dependency is an
    /// item one; a G2-item cycle is a G2 cycle), itself first. `predicate` says whether the
    /// cycle has a predicate anti-dependency.
    pub fn implied(self, predicate: bool) -> Vec<Phenomenon> {
        use Phenomenon::*;
        match (self, predicate) {
            (G0, _) => vec![G0, G1c],
            (GSingle, false) => vec![GSingle, G2Item, G2],
            (GSingle, true) => vec![GSingle, G2],
            (G2Item, _) => vec![G2Item, G2],
            (other, _) => vec![other],
        }
    }
}

impl fmt::Display for Phenomenon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not one of [`Phenomenon::ALL`]'s.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown phenomenon '{0}'; accepted: G0, G1a, G1b, G1c, G-single, G2-item, G2")]
pub struct UnknownPhenomenon(pub String);

impl FromStr for Phenomenon {
    type Err = UnknownPhenomenon;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Phenomenon::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| UnknownPhenomenon(s.to_string()))
    }
}

impl Serialize for Phenomenon {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Phenomenon {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for p in Phenomenon::ALL {
            assert_eq!(p.name().parse::<Phenomenon>().unwrap(), p);
        }
        assert!("G2item".parse::<Phenomenon>().is_err());
    }

    #[test]
    fn an_item_g_single_cycle_is_also_g2_item() {
        assert!(Phenomenon::GSingle
            .implied(false)
            .contains(&Phenomenon::G2Item));
        assert!(!Phenomenon::GSingle
            .implied(true)
            .contains(&Phenomenon::G2Item));
    }
}
