//! Version-set reads ([`txhunt_sql::instrument::VersionSet`]): a statement marked with
//! [`txhunt_sql::instrument::version_sets_marker`] is followed ([`after`]), on its own connection and in its
//! transaction, by the reads of the row versions it read but cannot return itself; their
//! outcomes are kept per statement for decoding.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use txhunt_db::Connection;
use txhunt_model::Outcome;
use txhunt_sql::instrument::marked_version;

/// The version-set outcomes of each statement, by the version it is marked with.
pub(super) type Results = Arc<Mutex<HashMap<i64, Vec<Outcome>>>>;

/// After `sql` succeeded on `conn`: when it is marked with the version of a statement in
/// `sets`, runs that statement's version-set reads and keeps their outcomes in `results`.
pub(super) fn after(
    conn: &mut dyn Connection,
    sql: &str,
    sets: &HashMap<i64, Vec<String>>,
    results: &Results,
) {
    let Some((v, reads)) = marked_version(sql).and_then(|v| Some((v, sets.get(&v)?))) else {
        return;
    };
    let read: Vec<Outcome> = reads.iter().map(|r| conn.execute(r)).collect();
    results
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .insert(v, read);
}
