//! Output paths checked before any work starts, so that a run never finds out at its first
//! finding (or at its end) that it cannot write it.

use anyhow::Context;
use std::path::Path;

/// Makes sure `dir`, given with `flag`, is a directory txhunt can write in: creates it when
/// missing and writes (and removes) a probe file in it.
pub fn writable_dir(flag: &str, dir: &Path) -> anyhow::Result<()> {
    let what = || format!("{flag} {}: cannot write there", dir.display());
    std::fs::create_dir_all(dir).with_context(what)?;
    let probe = dir.join(format!(".txhunt-probe-{}", std::process::id()));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
        .with_context(what)?;
    std::fs::remove_file(&probe).with_context(what)?;
    Ok(())
}

/// Makes sure the file `path`, given with `flag`, can be written: its directory is writable
/// and `path` itself is not a directory.
pub fn writable_file(flag: &str, path: &Path) -> anyhow::Result<()> {
    anyhow::ensure!(
        !path.is_dir(),
        "{flag} {}: is a directory, not a file",
        path.display()
    );
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    writable_dir(flag, parent)
}
