//! Writing a reduction beside the scenario it reduced.

use super::Reduction;
use crate::store::write_whole;
use std::path::{Path, PathBuf};
use txhunt_model::scenario;

/// The header key naming the scenario a reduced one was reduced from.
pub const REDUCED_FROM_KEY: &str = "reduced-from";

/// Writes `reduction` of the scenario at `original` beside it: the reduced
/// scenario, its statements noted with what its own run observed (unless the finding was
/// flaky: then nothing was reduced)
/// at [`reduced_path`] and the reduction's log as `<stem>.reduced.json`, each whole or not at
/// all; returns the reduced scenario's text, if one was written.
pub fn write_beside(original: &Path, reduction: &Reduction) -> std::io::Result<Option<String>> {
    let json = serde_json::to_string_pretty(reduction).map_err(std::io::Error::other)?;
    write_whole(&original.with_extension("reduced.json"), json.as_bytes())?;
    if reduction.flaky.is_some() {
        return Ok(None);
    }
    let mut reduced = reduction.case.clone();
    reduced
        .header
        .extra
        .retain(|(key, _)| key != REDUCED_FROM_KEY);
    if let Some(observed) = &reduction.observed {
        // What the reduced case's own run did, not what the original's did.
        for step in &mut reduced.steps {
            step.stmt.note = None;
        }
        crate::store::observe(&mut reduced, observed, &[]);
    }
    let name = original.file_name().unwrap_or_default().to_string_lossy();
    (reduced.header.extra).push((REDUCED_FROM_KEY.into(), name.into_owned()));
    let text = scenario::print(&reduced);
    write_whole(&reduced_path(original), text.as_bytes())?;
    Ok(Some(text))
}

/// Where the reduction of the scenario at `original` is written: `<stem>.reduced.sql`.
pub fn reduced_path(original: &Path) -> PathBuf {
    original.with_extension("reduced.sql")
}
