//! The clock as the store writes it: instants as RFC 3339 text in UTC (what people read and
//! `--since` compares), lease heartbeats as Unix milliseconds.
//!
//! Heartbeats come from each worker's own clock: workers on several machines need clocks
//! that agree to well within a lease's timeout ([`crate::leases::DEFAULT_STALE_AFTER`]).

use std::time::{SystemTime, UNIX_EPOCH};

/// Now, as `2026-11-26T10:00:00Z`.
pub(crate) fn now_text() -> String {
    humantime::format_rfc3339_seconds(SystemTime::now()).to_string()
}

/// Now, in milliseconds since the Unix epoch.
pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// `text` (`2026-11-26`, `2026-11-26 10:00`, `2026-11-26T10:00:00Z`) as the store's instant
/// text, for comparing with stored instants; `None` when it is none of these.
pub fn parse_instant(text: &str) -> Option<String> {
    let text = text.trim();
    let full = match text.len() {
        10 => format!("{text}T00:00:00Z"),
        16 => format!("{text}:00Z"),
        _ => text.to_string(),
    };
    let instant = humantime::parse_rfc3339_weak(&full.replace(' ', "T")).ok()?;
    Some(humantime::format_rfc3339_seconds(instant).to_string())
}

#[cfg(test)]
mod tests {
    use super::parse_instant;

    #[test]
    fn dates_and_instants_read_as_utc_instants() {
        assert_eq!(
            parse_instant("2026-11-26").as_deref(),
            Some("2026-11-26T00:00:00Z")
        );
        assert_eq!(
            parse_instant("2026-11-26 10:30").as_deref(),
            Some("2026-11-26T10:30:00Z")
        );
        assert_eq!(parse_instant("yesterday"), None);
    }
}
