//! Finding server binaries: a given directory, Debian's paths, or PATH.

use crate::target::TargetError;
use std::path::{Path, PathBuf};

/// The first of `names` found in `bin_dir` (and its `../scripts`, `../sbin`), or, without a
/// directory, in `fallback_dirs` and on PATH.
pub(super) fn find(
    names: &[&str],
    bin_dir: Option<&Path>,
    fallback_dirs: &[PathBuf],
) -> Result<PathBuf, TargetError> {
    let dirs: Vec<PathBuf> = match bin_dir {
        Some(dir) => {
            let mut dirs = vec![dir.to_path_buf()];
            if let Some(parent) = dir.parent() {
                dirs.push(parent.join("scripts"));
                dirs.push(parent.join("sbin"));
                dirs.push(parent.join("bin"));
            }
            dirs
        }
        None => {
            let mut dirs = fallback_dirs.to_vec();
            if let Some(path) = std::env::var_os("PATH") {
                dirs.extend(std::env::split_paths(&path));
            }
            dirs.push("/usr/sbin".into());
            dirs.push("/usr/bin".into());
            dirs
        }
    };
    for dir in &dirs {
        for name in names {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Ok(candidate);
            }
        }
    }
    let install = match names.first() {
        Some(n) if n.starts_with("maria") || n.starts_with("mysql") => {
            "apt-get install mariadb-server"
        }
        _ => "apt-get install postgresql",
    };
    Err(TargetError::Spec(format!(
        "cannot find {} in {}; install the server ({install}) or pass --bin-dir DIR",
        names.join(" or "),
        match bin_dir {
            Some(d) => d.display().to_string(),
            None => "the usual places or PATH".to_string(),
        }
    )))
}

/// Debian's PostgreSQL binary directories, newest major first.
pub(super) fn debian_postgres_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let major = e.file_name().to_str()?.parse().ok()?;
            Some((major, e.path().join("bin")))
        })
        .collect();
    dirs.sort_by_key(|d| std::cmp::Reverse(d.0));
    dirs.into_iter().map(|(_, d)| d).collect()
}
