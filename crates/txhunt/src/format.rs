//! `--format`: how a command prints what other programs may read; `--history`: the format a
//! read/write history is written in.

use clap::ValueEnum;
use txhunt_hunt::export::{HistoryFormat, UnknownFormat};

/// Output formats.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// For people.
    Text,
    /// For programs.
    Json,
}

/// `--history FORMAT`: the read/write history format (`json`, `elle`, `plume`, `dbcop`).
pub fn parse_history_format(name: &str) -> Result<HistoryFormat, UnknownFormat> {
    name.parse()
}
