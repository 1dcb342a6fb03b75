//! Opening a target from its `--target` value.

use crate::mysql::MysqlTarget;
use crate::postgres::PgTarget;
use crate::profile::{innodb, postgres as pg, Profile};
use crate::settings::{split_settings, Settings};
use crate::sqlite::SqliteTarget;
use crate::target::{Target, TargetError};
use crate::testbed::{versions, Server, ServerKind};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Opens the target a `--target` value names:
///
/// * `sqlite` or `sqlite:DIR` — embedded SQLite; DIR is where txhunt creates (and later
///   deletes) its database files, the system's temp directory by default;
/// * `turso[:DIR]`, `turso-mvcc[:DIR]` — embedded Turso, normal or MVCC mode, likewise;
///   either followed by `?NAME=VALUE&…`, PRAGMAs run on every fresh database (Turso's MVCC
///   knobs); `turso@VERSION` names the version compiled in (0.8.3, or 0.9.0-pre.2 with the
///   cargo feature `turso-next`);
/// * `duckdb` — embedded DuckDB, a fresh in-memory database per execution (built with the
///   cargo feature `duckdb`);
/// * `mariadb`, `postgres` — a private server the testbed starts (from `bin_dir` if given) and
///   stops when the target is dropped; `mariadb@DIR`, `postgres@DIR` — likewise from the
///   binaries in DIR (several versions side by side); `postgres@VERSION` (`postgres@12`,
///   `postgres@16.4`) from the build `scripts/fetch-postgres VERSION` fetched
///   ([`versions`]); either followed by
///   `?NAME=VALUE&NAME=VALUE…`, server settings the server starts with ([`Settings`]), e.g.
///   `mariadb?innodb_snapshot_isolation=ON`;
/// * `mysql://…` (MariaDB, MySQL or TiDB, told apart by the server's version), `mariadb://…`,
///   `tidb://…`, `postgres://…` / `postgresql://…` (PostgreSQL or CockroachDB),
///   `cockroach://…` — an existing server, where txhunt only uses databases it creates.
pub fn open_target(spec: &str, bin_dir: Option<&Path>) -> Result<Box<dyn Target>, TargetError> {
    use crate::profile::{cockroach, tidb};
    if let Some((kind, dir, settings)) = testbed_spec(spec)? {
        return open_testbed(kind, dir.as_deref().or(bin_dir), settings);
    }
    let (scheme, rest) = spec.split_once("://").unwrap_or(("", spec));
    let as_url = |new_scheme: &str| format!("{new_scheme}://{rest}");
    match (scheme, spec) {
        ("", "sqlite") => Ok(Box::new(SqliteTarget::new(None)?)),
        ("", s) if s.starts_with("sqlite:") => Ok(Box::new(SqliteTarget::new(Some(
            s["sqlite:".len()..].into(),
        ))?)),
        ("", s) if s.starts_with("turso") => open_turso(s),
        ("", "duckdb") => open_duckdb(),
        ("mysql", _) => Ok(Box::new(MysqlTarget::new(spec, None, None)?)),
        ("mariadb", _) => Ok(Box::new(MysqlTarget::new(&as_url("mysql"), Some(&innodb::MARIADB), None)?)),
        ("tidb", _) => Ok(Box::new(MysqlTarget::new(&as_url("mysql"), Some(&tidb::TidbProfile), None)?)),
        ("postgres" | "postgresql", _) => Ok(Box::new(PgTarget::new(spec, None, None)?)),
        ("cockroach", _) => Ok(Box::new(PgTarget::new(&as_url("postgres"), Some(&cockroach::CockroachProfile), None)?)),
        _ => Err(TargetError::Spec(format!(
            "unknown target '{}'; accepted: sqlite, sqlite:DIR, turso[@VERSION][:DIR][?SETTINGS], turso-mvcc[@VERSION][:DIR][?SETTINGS], duckdb, mariadb[@BINDIR][?SETTINGS], postgres[@BINDIR|@VERSION][?SETTINGS], mysql://…, mariadb://…, tidb://…, postgres://…, cockroach://…",
            redact(spec)
        ))),
    }
}

/// A Turso target, `turso[-mvcc][@VERSION][:DIR][?SETTINGS]`; VERSION, if given, must be the
/// one compiled in ([`crate::turso::VERSION`]).
#[cfg(any(feature = "turso-release", feature = "turso-next"))]
fn open_turso(spec: &str) -> Result<Box<dyn Target>, TargetError> {
    use crate::turso::{TursoTarget, VERSION};
    let (base, settings) = split_settings(spec)?;
    let (name, dir) = base
        .split_once(':')
        .map_or((base, None), |(m, d)| (m, Some(PathBuf::from(d))));
    let (mode, version) = name.split_once('@').unwrap_or((name, VERSION));
    if version != VERSION {
        return Err(TargetError::Spec(format!(
            "{mode}@{version}: this txhunt carries Turso {VERSION} (the release 0.8.3 by default; the pre-release 0.9.0-pre.2 with `--no-default-features --features turso-next`)"
        )));
    }
    let mvcc = match mode {
        "turso" => false,
        "turso-mvcc" => true,
        _ => return Err(TargetError::Spec(format!("unknown target '{spec}'; accepted: turso[@VERSION][:DIR][?SETTINGS], turso-mvcc[@VERSION][:DIR][?SETTINGS]"))),
    };
    Ok(Box::new(
        TursoTarget::new(dir, mvcc)?.with_settings(settings)?,
    ))
}

/// Why this build has no Turso target.
#[cfg(not(any(feature = "turso-release", feature = "turso-next")))]
fn open_turso(spec: &str) -> Result<Box<dyn Target>, TargetError> {
    Err(TargetError::Spec(format!(
        "{spec}: this txhunt was built without Turso (cargo feature turso-release or turso-next)"
    )))
}

/// The DuckDB target, or why this build has none.
#[cfg(feature = "duckdb")]
fn open_duckdb() -> Result<Box<dyn Target>, TargetError> {
    Ok(Box::new(crate::duckdb::DuckdbTarget::new()?))
}

/// The DuckDB target, or why this build has none.
#[cfg(not(feature = "duckdb"))]
fn open_duckdb() -> Result<Box<dyn Target>, TargetError> {
    Err(TargetError::Spec(
        "duckdb: this txhunt was built without DuckDB; run scripts/fetch-duckdb, then build with `cargo build --release --features duckdb`".into(),
    ))
}

/// A testbed `--target` value (`mariadb|postgres[@DIR][?SETTINGS]`) as the server kind, its
/// binaries' directory and its settings.
type TestbedSpec = (ServerKind, Option<PathBuf>, Settings);

/// Reads a testbed `--target` value ([`TestbedSpec`]); `None` when `spec` names no testbed.
fn testbed_spec(spec: &str) -> Result<Option<TestbedSpec>, TargetError> {
    let (base, settings) = split_settings(spec)?;
    let (name, dir) = base
        .split_once('@')
        .map_or((base, None), |(n, d)| (n, Some(d)));
    let kind = match name {
        "mariadb" => ServerKind::Mariadb,
        "postgres" => ServerKind::Postgres,
        _ => return Ok(None),
    };
    let dir = match dir {
        Some(version) if kind == ServerKind::Postgres && versions::is_version(version) => {
            Some(versions::embedded_postgres(version)?)
        }
        dir => dir.map(PathBuf::from),
    };
    Ok(Some((kind, dir, settings)))
}

/// Starts a testbed server and opens it as a target labelled with its settings.
fn open_testbed(
    kind: ServerKind,
    bin_dir: Option<&Path>,
    settings: Settings,
) -> Result<Box<dyn Target>, TargetError> {
    let server = Arc::new(Server::start_with(kind, bin_dir, None, &settings)?);
    let url = server.url().to_string();
    Ok(match kind {
        ServerKind::Mariadb => Box::new(
            MysqlTarget::new(&url, Some(&innodb::MARIADB), Some(server))?.with_settings(settings),
        ),
        ServerKind::Postgres => Box::new(
            PgTarget::new(&url, Some(&pg::PostgresProfile), Some(server))?.with_settings(settings),
        ),
    })
}

/// The profile of the DBMS a testbed `--target` value (`mariadb[@DIR][?SETTINGS]`,
/// `postgres[@DIR][?SETTINGS]`) starts, known before its server is (to refuse a flag the DBMS
/// cannot honour without starting one); `None` for any other value, or a malformed one (opening
/// it says what is wrong).
pub fn testbed_profile(spec: &str) -> Option<&'static dyn Profile> {
    match testbed_spec(spec).ok()?? {
        (ServerKind::Mariadb, _, settings) => {
            Some(innodb::mariadb(settings.is_on("innodb_snapshot_isolation")))
        }
        (ServerKind::Postgres, ..) => Some(&pg::PostgresProfile),
    }
}

/// Opens every `--target` value (see [`open_target`]); several must speak one SQL family, since
/// only such targets can run the same cases and be compared.
pub fn open_targets(
    specs: &[String],
    bin_dir: Option<&Path>,
) -> Result<Vec<Box<dyn Target>>, TargetError> {
    let targets = specs
        .iter()
        .map(|spec| {
            open_target(spec, bin_dir)
                .map_err(|e| TargetError::Spec(format!("--target {}: {e}", redact(spec))))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if let Some((first, rest)) = targets.split_first() {
        let family = first.profile().family();
        if let Some(other) = rest.iter().find(|t| t.profile().family() != family) {
            return Err(TargetError::Spec(format!(
                "--target: {} and {} speak different SQL; several targets run the same cases and must be of one family (sqlite, MySQL, PostgreSQL)",
                first.name(),
                other.name()
            )));
        }
    }
    Ok(targets)
}

/// `spec` with any password replaced by `***`, fit to print.
pub fn redact(spec: &str) -> String {
    let Some((scheme, rest)) = spec.split_once("://") else {
        return spec.to_string();
    };
    let (authority, tail) = rest
        .split_once('/')
        .map_or((rest, None), |(a, t)| (a, Some(t)));
    let authority = match authority.rsplit_once('@') {
        Some((userinfo, host)) => match userinfo.split_once(':') {
            Some((user, _password)) => format!("{user}:***@{host}"),
            None => format!("{userinfo}@{host}"),
        },
        None => authority.to_string(),
    };
    match tail {
        Some(t) => format!("{scheme}://{authority}/{t}"),
        None => format!("{scheme}://{authority}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redacts_passwords() {
        assert_eq!(
            redact("mysql://root:secret@db:3306/x"),
            "mysql://root:***@db:3306/x"
        );
        assert_eq!(redact("postgres://u@h/db"), "postgres://u@h/db");
        assert_eq!(redact("sqlite"), "sqlite");
    }

    #[cfg(any(feature = "turso-release", feature = "turso-next"))]
    #[test]
    fn turso_at_a_version_names_the_one_compiled_in() {
        let version = crate::turso::VERSION;
        let target = open_target(&format!("turso-mvcc@{version}"), None).unwrap();
        assert_eq!(target.label(), format!("turso-mvcc {version}"));
        let err = open_target("turso@9.9", None).err().unwrap().to_string();
        assert!(
            err.contains(&format!("turso@9.9: this txhunt carries Turso {version}")),
            "{err}"
        );
    }

    #[test]
    fn unknown_targets_are_named_without_their_password() {
        let err = open_target("oracle://sys:hunter2@h", None)
            .err()
            .unwrap()
            .to_string();
        assert!(
            err.contains("oracle://sys:***@h") && !err.contains("hunter2"),
            "{err}"
        );
    }
}
