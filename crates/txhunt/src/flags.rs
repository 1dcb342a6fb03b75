//! Flag values checked where clap's types cannot say it: counts that must be at least 1,
//! durations that must be longer than zero.

use std::time::Duration;
use txhunt_exec::parse_duration;

/// A duration that must be longer than zero (a zero statement timeout would make every
/// statement a hang).
pub fn positive_duration(text: &str) -> Result<Duration, String> {
    let duration = parse_duration(text).map_err(|e| e.to_string())?;
    if duration.is_zero() {
        return Err(format!("'{text}' must be longer than 0s"));
    }
    Ok(duration)
}

/// A count that must be at least 1 (`--workers 0` would run nothing, `--max-txns 0` would
/// generate empty cases).
pub fn at_least_one(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("must be at least 1".to_string()),
        Ok(n) => Ok(n),
        Err(e) => Err(format!("'{text}': {e}")),
    }
}
