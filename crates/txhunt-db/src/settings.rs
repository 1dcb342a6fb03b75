//! Server settings as part of a target: `mariadb?innodb_snapshot_isolation=ON`,
//! `postgres@DIR?max_locks_per_transaction=128&jit=off`.
//!
//! The testbed starts its server with them (MariaDB `--NAME=VALUE`, PostgreSQL `-c NAME=VALUE`,
//! after its own defaults, so a setting overrides them), and the server validates them: an
//! unknown name or a bad value stops it at start, with the server's own message. Settings that
//! change concurrency control select the profile whose claims follow them (MariaDB's
//! `innodb_snapshot_isolation`), and a target's label shows its settings, so that reports and
//! comparisons tell `mariadb?innodb_snapshot_isolation=ON` from plain `mariadb`.

use crate::target::TargetError;

/// Server variables, in the order given; names as the user spelt them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Settings(Vec<(String, String)>);

impl Settings {
    /// Parses `NAME=VALUE&NAME=VALUE…` (the part of a `--target` value after `?`). Names are
    /// letters, digits, `_`, `-` and `.` (PostgreSQL's custom `module.name`); a value is
    /// anything but `&`, and not empty; a name given twice is an error.
    pub fn parse(text: &str) -> Result<Settings, TargetError> {
        let mut settings = Settings::default();
        for part in text.split('&') {
            let Some((name, value)) = part.split_once('=') else {
                return Err(TargetError::Spec(format!(
                    "server setting '{part}' has no value; write NAME=VALUE, several joined by &"
                )));
            };
            let valid_name = name.starts_with(|c: char| c.is_ascii_alphabetic())
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
            if !valid_name {
                return Err(TargetError::Spec(format!(
                    "server setting name '{name}' is not a variable name (letters, digits, _, - and .)"
                )));
            }
            if value.is_empty() {
                return Err(TargetError::Spec(format!(
                    "server setting '{name}' has an empty value"
                )));
            }
            if settings.get(name).is_some() {
                return Err(TargetError::Spec(format!(
                    "server setting '{name}' is given twice"
                )));
            }
            settings.0.push((name.to_string(), value.to_string()));
        }
        Ok(settings)
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The settings, in the order given.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// The value of `name`; names compare as servers compare them (case-insensitive, `-` and
    /// `_` alike).
    pub fn get(&self, name: &str) -> Option<&str> {
        let wanted = normalized(name);
        self.iter()
            .find(|(n, _)| normalized(n) == wanted)
            .map(|(_, v)| v)
    }

    /// Whether `name` is set to a true value (`ON`, `1`, `true`, `yes`, any case).
    pub fn is_on(&self, name: &str) -> bool {
        self.get(name)
            .is_some_and(|v| matches!(v.to_ascii_lowercase().as_str(), "on" | "1" | "true" | "yes"))
    }

    /// `?NAME=VALUE&…` as a target value spells them, or nothing when there are none.
    pub fn suffix(&self) -> String {
        if self.is_empty() {
            return String::new();
        }
        let parts: Vec<String> = self.iter().map(|(n, v)| format!("{n}={v}")).collect();
        format!("?{}", parts.join("&"))
    }
}

/// A variable name as MariaDB and PostgreSQL compare them.
fn normalized(name: &str) -> String {
    name.to_ascii_lowercase().replace('-', "_")
}

/// Splits a testbed `--target` value (`NAME[@DIR][?SETTINGS]`) into `NAME[@DIR]` and its
/// settings.
pub fn split_settings(spec: &str) -> Result<(&str, Settings), TargetError> {
    match spec.split_once('?') {
        Some((base, query)) => Ok((base, Settings::parse(query)?)),
        None => Ok((spec, Settings::default())),
    }
}

/// The targets a `--target` value with alternative settings stands for, in order: each
/// `NAME=A|B|…` is one of its values, and every combination is one target, e.g.
/// `turso-mvcc?mvcc_gc_threshold=1|-1` stands for `turso-mvcc?mvcc_gc_threshold=1` and
/// `turso-mvcc?mvcc_gc_threshold=-1`. A value without alternatives stands for itself.
pub fn rotation(spec: &str) -> Vec<String> {
    let Some((base, query)) = spec.split_once('?') else {
        return vec![spec.to_string()];
    };
    let mut specs = vec![format!("{base}?")];
    for (i, part) in query.split('&').enumerate() {
        let glue = if i == 0 { "" } else { "&" };
        // A malformed part stays as it is, for opening the target to say what is wrong.
        let alternatives: Vec<String> = match part.split_once('=') {
            Some((name, values)) => values.split('|').map(|v| format!("{name}={v}")).collect(),
            None => vec![part.to_string()],
        };
        specs = specs
            .iter()
            .flat_map(|s| alternatives.iter().map(move |a| format!("{s}{glue}{a}")))
            .collect();
    }
    specs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_names_and_values_in_order() {
        let s = Settings::parse("innodb_snapshot_isolation=ON&max-connections=50").unwrap();
        assert_eq!(
            s.iter().collect::<Vec<_>>(),
            [
                ("innodb_snapshot_isolation", "ON"),
                ("max-connections", "50")
            ]
        );
        assert!(s.is_on("INNODB-SNAPSHOT-ISOLATION"));
        assert_eq!(s.get("max_connections"), Some("50"));
        assert_eq!(
            s.suffix(),
            "?innodb_snapshot_isolation=ON&max-connections=50"
        );
        assert!(!Settings::parse("x=off").unwrap().is_on("x"));
        assert_eq!(Settings::default().suffix(), "");
    }

    #[test]
    fn alternatives_stand_for_every_combination() {
        assert_eq!(rotation("sqlite"), ["sqlite"]);
        assert_eq!(rotation("mariadb?a=1"), ["mariadb?a=1"]);
        assert_eq!(
            rotation("turso-mvcc?a=0|-1&b=x&c=1|2"),
            [
                "turso-mvcc?a=0&b=x&c=1",
                "turso-mvcc?a=0&b=x&c=2",
                "turso-mvcc?a=-1&b=x&c=1",
                "turso-mvcc?a=-1&b=x&c=2"
            ]
        );
        assert_eq!(rotation("mariadb?jit"), ["mariadb?jit"]);
    }

    #[test]
    fn refuses_what_no_server_would_take() {
        for (bad, says) in [
            ("jit", "has no value"),
            ("=1", "not a variable name"),
            ("a b=1", "not a variable name"),
            ("jit=", "empty value"),
            ("jit=on&JIT=off", "given twice"),
        ] {
            let err = Settings::parse(bad).unwrap_err().to_string();
            assert!(err.contains(says), "{bad}: {err}");
        }
    }

    #[test]
    fn splits_a_target_value() {
        let (base, s) = split_settings("mariadb@/opt/m/bin?innodb_snapshot_isolation=1").unwrap();
        assert_eq!(base, "mariadb@/opt/m/bin");
        assert!(s.is_on("innodb_snapshot_isolation"));
        assert_eq!(
            split_settings("postgres").unwrap(),
            ("postgres", Settings::default())
        );
    }
}
