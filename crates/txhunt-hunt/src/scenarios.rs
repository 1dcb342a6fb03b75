//! Loading scenario files: one by one (`txhunt run FILE…`) or a whole folder (`txhunt corpus
//! run DIR`).

use std::path::{Path, PathBuf};
use txhunt_model::scenario::{self, ParseError};
use txhunt_model::TestCase;

/// A scenario file could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file or folder could not be read.
    #[error("{path}: cannot read: {source}")]
    Read {
        /// What was read.
        path: String,
        /// Why it failed.
        source: std::io::Error,
    },
    /// The file is not a scenario (`file:line:col: message`).
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// A folder holds no scenario.
    #[error("{0}: no .sql scenarios")]
    Empty(String),
}

/// A loaded scenario: its file name and the case.
pub type Scenario = (String, TestCase);

/// Parses the scenario file at `path`.
pub fn load_file(path: &Path) -> Result<Scenario, LoadError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| LoadError::Read {
        path: name.clone(),
        source,
    })?;
    let case = scenario::parse(&text, &name)?;
    Ok((name, case))
}

/// Every `.sql` scenario below `dir`, parsed, in path order.
pub fn load_dir(dir: &Path) -> Result<Vec<Scenario>, LoadError> {
    let mut files = Vec::new();
    collect(dir, &mut files).map_err(|source| LoadError::Read {
        path: dir.display().to_string(),
        source,
    })?;
    files.sort();
    if files.is_empty() {
        return Err(LoadError::Empty(dir.display().to_string()));
    }
    files.iter().map(|path| load_file(path)).collect()
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect(&path, files)?;
        } else if path.extension().is_some_and(|x| x == "sql") {
            files.push(path);
        }
    }
    Ok(())
}
