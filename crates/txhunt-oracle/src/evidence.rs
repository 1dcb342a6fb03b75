//! The evidence a finding carries, as data ([`Detail`]), and its one rendering as text lines
//! ([`Detail::lines`]); JSON is its serde form.

use crate::SerialLevel;
use serde::{Deserialize, Serialize};
use txhunt_model::adya::Phenomenon;
use txhunt_model::value::{bag_difference, format_rows};
use txhunt_model::{DbState, Outcome, Row};

/// One piece of a finding's evidence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Detail {
    /// The serial schedule a concurrent run was compared with (WSS).
    SerialOrder {
        /// Transaction- or statement-level.
        schedule: SerialLevel,
        /// The transactions in serial order, e.g. `t2 → t1 (rolled back)`.
        order: String,
    },
    /// The sequential order a run was compared with (SDG).
    SequentialOrder {
        /// The statements in order, e.g. `t2.2 → t1.2 → t2.3`.
        order: String,
        /// The order as a scenario `txhunt run` replays.
        scenario: String,
    },
    /// A table whose rows differ between the concurrent and the serial run (WSS).
    Table {
        /// The table.
        table: String,
        /// Its rows after the concurrent run.
        concurrent: Vec<Row>,
        /// Its rows after the serial run.
        serial: Vec<Row>,
    },
    /// A statement of a committed transaction whose outcome differs between the concurrent and
    /// the serial run (WSS).
    Statement {
        /// Its session.
        session: String,
        /// Its SQL.
        sql: String,
        /// What it did concurrently.
        concurrent: Outcome,
        /// What it did in the serial run.
        serial: Outcome,
    },
    /// What one target did where two targets' runs first differ (differential).
    Step {
        /// The target's label.
        target: String,
        /// The statement (`t1 \`UPDATE …\``), `None` when the target ran nothing more.
        statement: Option<String>,
        /// How it completed, `None` when it blocked there.
        outcome: Option<Outcome>,
    },
    /// One target's final state (differential).
    FinalState {
        /// The target's label.
        target: String,
        /// The state, `None` when it could not be read.
        state: Option<DbState>,
    },
    /// A documented behaviour tried and why it does not explain the finding.
    RuledOut {
        /// Why, in one line (`not semi-consistent-read: …`).
        why: String,
    },
    /// An Adya phenomenon and the dependencies that show it (DSG).
    Cycle(Observed),
    /// A remark on how the finding was judged.
    Note {
        /// The remark.
        text: String,
    },
}

impl Detail {
    /// The detail as lines of text, as `txhunt run` prints them.
    pub fn lines(&self) -> Vec<String> {
        match self {
            Detail::SerialOrder { schedule, order } => {
                vec![format!(
                    "serial order ({}, FCRFS): {order}",
                    schedule.name()
                )]
            }
            Detail::SequentialOrder { order, .. } => {
                vec![format!(
                    "sequential order (statement dependency graph): {order}"
                )]
            }
            Detail::Table {
                table,
                concurrent,
                serial,
            } => vec![
                format!("{table}: concurrent {}", format_rows(concurrent)),
                format!("{table}: serial     {}", format_rows(serial)),
                format!(
                    "{table}: only concurrent {}; only serial {}",
                    format_rows(&bag_difference(concurrent, serial)),
                    format_rows(&bag_difference(serial, concurrent))
                ),
            ],
            Detail::Statement {
                session,
                sql,
                concurrent,
                serial,
            } => vec![format!(
                "{session}: `{sql}`: concurrent {concurrent}; serial {serial}"
            )],
            Detail::Step {
                target,
                statement,
                outcome,
            } => vec![match (statement, outcome) {
                (None, _) => format!("{target}: nothing more ran"),
                (Some(s), None) => format!("{target}: {s} blocked"),
                (Some(s), Some(o)) => format!("{target}: {s} completed: {o}"),
            }],
            Detail::FinalState { target, state } => vec![match state {
                Some(state) => format!("{target}: {state}"),
                None => format!("{target}: no final state"),
            }],
            Detail::Cycle(observed) => observed.lines(),
            Detail::RuledOut { why } => vec![why.clone()],
            Detail::Note { text } => vec![text.clone()],
        }
    }
}

/// The tables whose rows differ between a concurrent run's final state and a serial or
/// sequential one's.
pub(crate) fn state_diff(concurrent: &DbState, serial: &DbState) -> Vec<Detail> {
    let names: std::collections::BTreeSet<&str> = concurrent
        .tables()
        .chain(serial.tables())
        .map(|(n, _)| n)
        .collect();
    names
        .into_iter()
        .filter_map(|name| {
            let c = concurrent.table(name).unwrap_or(&[]);
            let s = serial.table(name).unwrap_or(&[]);
            (c != s).then(|| Detail::Table {
                table: name.to_string(),
                concurrent: c.to_vec(),
                serial: s.to_vec(),
            })
        })
        .collect()
}

/// An Adya phenomenon in a run, as `txhunt run --oracle dsg --format json` lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observed {
    /// The phenomenon: `G0`, `G1a`, `G1b`, `G1c`, `G-single`, `G2-item` or `G2`.
    pub class: Phenomenon,
    /// Its common name, where one applies (`lost-update`, `read-skew`, `write-skew`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refinement: Option<String>,
    /// Whether the cycle has a predicate anti-dependency.
    pub predicate: bool,
    /// For a G-single whose anti-dependency and closing read-dependency are reads of one
    /// plain read statement: that statement's step (0-based).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub within_statement: Option<usize>,
    /// The Adya level the run's isolation level promises, e.g. `PL-SI`.
    pub level: String,
    /// Whether that level lets the phenomenon through.
    pub allowed: bool,
    /// The dependencies, in cycle order (for G1a and G1b: the one read).
    pub cycle: Vec<Dependency>,
}

impl Observed {
    /// The phenomenon and its cycle as text lines.
    pub fn lines(&self) -> Vec<String> {
        let mut name = (self.refinement.as_ref()).map_or(String::new(), |r| format!(" ({r})"));
        if let Some(step) = self.within_statement {
            name.push_str(&format!(" within one statement (step {})", step + 1));
        }
        let verdict = if self.allowed { "allowed" } else { "forbidden" };
        let head = format!("{}{name}, {verdict} at {}:", self.class, self.level);
        std::iter::once(head)
            .chain(self.cycle.iter().map(|d| format!("  {}", d.text)))
            .collect()
    }
}

/// One dependency of a cycle, between two of the run's transactions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dependency {
    /// The transaction depended on (`t1`, or `t1+` for a statement run on its own after `t1`
    /// aborted).
    pub from: String,
    /// The dependent transaction.
    pub to: String,
    /// `ww`, `wr` or `rw`.
    pub kind: String,
    /// The row (`table:rid`).
    pub row: String,
    /// The version read or overwritten (`init2`, `#5`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The step (index into the case's steps) that reads or writes it.
    pub step: usize,
    /// For a predicate dependency: the predicate (`t WHERE v > 5`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub predicate: Option<String>,
    /// The dependency in words.
    pub text: String,
}
