//! The `--isolation` flag: one level, a comma list, or `all`, checked against the target.

use anyhow::bail;
use txhunt_db::{Profile, Target};
use txhunt_model::Isolation;

/// The levels `flag` names (`all`: every level the target supports); an error names what the
/// target supports when it lacks one.
pub fn isolation_flag(flag: &str, target: &dyn Target) -> anyhow::Result<Vec<Isolation>> {
    levels_of(flag, &target.name(), target.profile())
}

/// Checks that `target`, compared with a first target that runs cases at `levels`, can run
/// each at the level it then uses ([`txhunt_db::Profile::compared_level`]: a DBMS with one
/// level runs SERIALIZABLE cases at it).
pub fn check_compared(levels: &[Isolation], target: &dyn Target) -> anyhow::Result<()> {
    let profile = target.profile();
    for &level in levels {
        if !profile
            .isolation_levels()
            .contains(&profile.compared_level(level))
        {
            bail!(
                "--isolation: {} does not support {level}; it supports: {}",
                target.name(),
                profile.isolation_names()
            );
        }
    }
    Ok(())
}

/// Checks `flag` against the targets `specs` whose DBMS is known before they are opened (the
/// testbed's servers), so that a level the DBMS lacks is refused before a server starts.
pub fn check_before_start(flag: &str, specs: &[String]) -> anyhow::Result<()> {
    for spec in specs {
        if let Some(profile) = txhunt_db::testbed_profile(spec) {
            levels_of(flag, profile.name(), profile)?;
        }
    }
    Ok(())
}

/// The levels `flag` names for the DBMS `name` of `profile`.
fn levels_of(flag: &str, name: &str, profile: &dyn Profile) -> anyhow::Result<Vec<Isolation>> {
    if flag == "all" {
        return Ok(profile.isolation_levels().to_vec());
    }
    let mut levels = Vec::new();
    for item in flag.split(',') {
        let level: Isolation = item
            .parse()
            .map_err(|e| anyhow::anyhow!("--isolation: {e}, or all"))?;
        if !profile.isolation_levels().contains(&level) {
            bail!(
                "--isolation: {name} does not support {level}; it supports: {}",
                profile.isolation_names()
            );
        }
        levels.push(level);
    }
    Ok(levels)
}
