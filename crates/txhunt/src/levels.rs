//! The `--isolation` flag: one level, a comma list, or `all`, checked against the target.

use anyhow::bail;
use txhunt_db::Target;
use txhunt_model::Isolation;

/// The levels `flag` names (`all`: every level the target supports); an error names what the
/// target supports when it lacks one.
pub fn isolation_flag(flag: &str, target: &dyn Target) -> anyhow::Result<Vec<Isolation>> {
    let profile = target.profile();
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
                "--isolation: {} does not support {level}; it supports: {}",
                target.name(),
                profile.isolation_names()
            );
        }
        levels.push(level);
    }
    Ok(levels)
}
