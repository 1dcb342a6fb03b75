//! The `--target` flag, given once or several times: each value opened, a private server's
//! binaries chosen per value with `NAME@BINDIR`, and several targets checked to speak one
//! SQL family (the differential oracle compares them).

use anyhow::{bail, Context};
use std::path::Path;
use txhunt_db::{open_target, redact, Target, TargetError};

/// Opens one `--target` value. `mariadb@DIR` / `postgres@DIR` start a private server from
/// the binaries in DIR; other values use `bin_dir` (`--bin-dir`) as `open_target` does.
pub fn open(spec: &str, bin_dir: Option<&Path>) -> Result<Box<dyn Target>, TargetError> {
    match spec.split_once('@') {
        Some((name, dir)) if matches!(name, "mariadb" | "postgres") => {
            open_target(name, Some(Path::new(dir)))
        }
        _ => open_target(spec, bin_dir),
    }
}

/// Opens every `--target` value (see [`open`]); several must speak one SQL family.
pub fn open_all(specs: &[String], bin_dir: Option<&Path>) -> anyhow::Result<Vec<Box<dyn Target>>> {
    let targets = specs
        .iter()
        .map(|spec| open(spec, bin_dir).with_context(|| format!("--target {}", redact(spec))))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let dialect =
        |t: &dyn Target| txhunt_sql::dialect::for_target(t.profile().name()).map(|d| d.name());
    if let Some((first, rest)) = targets.split_first() {
        for other in rest {
            if dialect(other.as_ref()) != dialect(first.as_ref()) {
                bail!(
                    "--target: {} and {} speak different SQL; the differential oracle compares targets of one family (sqlite, MySQL, PostgreSQL)",
                    first.name(),
                    other.name()
                );
            }
        }
    }
    Ok(targets)
}

/// How a target is named in comparisons: its name and version, e.g. `postgres 15.19`.
pub fn label(target: &dyn Target) -> String {
    format!("{} {}", target.name(), target.version())
}
