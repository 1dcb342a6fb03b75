//! What `--target` accepts, said once for the help of every command that takes a target.

/// The targets, printed after the options of every command that takes one
/// (`#[command(after_help = TARGETS)]`); [`txhunt_db::open_target`] reads them.
pub const TARGETS: &str = "\
Targets (--target):
  sqlite[:DIR]                   embedded SQLite (bundled); its database files in DIR
                                 (default: the temp directory)
  turso[:DIR][?SETTINGS]         embedded Turso: SQLite's model, a conflicting writer waits
  turso-mvcc[:DIR][?SETTINGS]    embedded Turso in MVCC mode: BEGIN CONCURRENT, snapshot
                                 isolation, a conflict fails at once
                                 SETTINGS: PRAGMA=VALUE&…, run on every fresh database,
                                 e.g. turso-mvcc?mvcc_gc_threshold=1
                                 turso@VERSION, turso-mvcc@VERSION: the Turso built in
                                 (0.8.3; 0.9.0-pre.2 with the cargo feature turso-next)
  duckdb                         embedded DuckDB (built with the cargo feature duckdb)
  mariadb[@BINDIR][?SETTINGS]    a private MariaDB server txhunt starts and stops
                                 (from BINDIR, else the installed binaries)
  postgres[@BINDIR][?SETTINGS]   a private PostgreSQL server, likewise
  postgres@N[?SETTINGS]          from the PostgreSQL N scripts/fetch-postgres fetched
                                 (postgres@12, postgres@16.4)
                                 SETTINGS: server settings, NAME=VALUE&…,
                                 e.g. mariadb?innodb_snapshot_isolation=ON
  mysql://…, mariadb://…, tidb://…, postgres://…, cockroach://…
                                 an existing server (txhunt uses only databases it creates)";

#[cfg(test)]
mod tests {
    use super::TARGETS;

    /// Every target the error for an unknown one names is in the help.
    #[test]
    fn names_every_target_open_target_accepts() {
        let unknown = txhunt_db::open_target("nonesuch", None).err().unwrap();
        let accepted = unknown.to_string();
        let accepted = accepted.split_once("accepted: ").unwrap().1;
        for spec in accepted.split(", ") {
            let name = spec.split(['[', ':', '@']).next().unwrap();
            assert!(
                TARGETS.contains(&format!("  {name}")) || TARGETS.contains(&format!("{name}://")),
                "{name} is not in the help"
            );
        }
    }
}
