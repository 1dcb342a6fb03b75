//! `--format`: how a command prints what other programs may read.

use clap::ValueEnum;

/// Output formats.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// For people.
    Text,
    /// For programs.
    Json,
}
