//! Idle transactions held open beside a stress run's sessions ([`StressConfig::idle`]): each
//! on a connection of its own, it reads a table of its own (`txh_idle`, which the workload
//! never touches) and, where writers do not exclude each other, inserts a row into it; then
//! it neither commits nor rolls back until the run is over.
//!
//! An open writer is one more entry in every snapshot's list of active transactions, which
//! lengthens the work of taking a snapshot (MariaDB's read-view race needs that to show at
//! all often: `corpus/mariadb/MARIADB-read-view-not-atomic.md`); an open snapshot holds back
//! the purge or vacuum of every version written after it, so version chains grow. Neither
//! changes what the workload's transactions may see. On SQLite-family targets a writer locks
//! the whole database: there the idle transactions only read.
//!
//! [`StressConfig::idle`]: super::StressConfig::idle

use txhunt_db::{Connection, Database, SessionConfig, TargetError};
use txhunt_model::SqlFamily;

/// The table the idle transactions read and write.
const TABLE: &str = "txh_idle";

/// `count` idle transactions on `db`, opened (each read, and wrote where `family` lets it
/// without blocking the workload) and left open; none when `count` is 0.
pub(super) fn hold(
    db: &dyn Database,
    config: SessionConfig,
    count: usize,
    family: SqlFamily,
) -> Result<Vec<Box<dyn Connection>>, TargetError> {
    let mut held: Vec<Box<dyn Connection>> = Vec::with_capacity(count);
    for n in 0..count {
        let mut conn = db.connect(config, None)?;
        let create = format!("CREATE TABLE {TABLE} (n INT)");
        let read = format!("SELECT COUNT(*) FROM {TABLE}");
        let write = format!("INSERT INTO {TABLE} VALUES ({n})");
        let statements = (n == 0).then_some(create.as_str()).into_iter();
        let statements = statements.chain(["BEGIN", read.as_str()]);
        let statements = statements.chain((family != SqlFamily::Sqlite).then_some(write.as_str()));
        for sql in statements {
            if let Some(e) = conn.execute(sql).error() {
                return Err(TargetError::db(
                    format!("opening idle transaction {n} (`{sql}`)"),
                    e,
                ));
            }
        }
        held.push(conn);
    }
    Ok(held)
}

/// Ends the idle transactions `held` (ROLLBACK, every one of them even after a failure) and
/// drops their table, so that the final state is the workload's alone; the first failure is
/// the error.
pub(super) fn release(held: Vec<Box<dyn Connection>>) -> Result<(), TargetError> {
    let mut failed = None;
    let mut last = None;
    for mut conn in held {
        if let Some(e) = conn.execute("ROLLBACK").error() {
            failed.get_or_insert(TargetError::db("ending an idle transaction", e));
        }
        last = Some(conn);
    }
    if let (None, Some(mut conn)) = (&failed, last) {
        if let Some(e) = conn.execute(&format!("DROP TABLE {TABLE}")).error() {
            failed = Some(TargetError::db(format!("dropping {TABLE}"), e));
        }
    }
    failed.map_or(Ok(()), Err)
}
