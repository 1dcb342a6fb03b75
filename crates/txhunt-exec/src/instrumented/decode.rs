//! Decoding an instrumented run: what the case's own statements showed, and the row versions
//! each one read and wrote.

use super::trigger_log::WEIGHT;
use std::collections::HashMap;
use txhunt_model::access::{
    is_hidden, Accesses, Predicate, Read, RowId, Version, Write, WriteKind,
};
use txhunt_model::{Outcome, Row, Value};
use txhunt_sql::instrument::Plan;

/// What a statement run by `plan` showed, and the row versions it read and wrote;
/// `version_sets` are the outcomes of its plan's version-set reads, in order (none when the
/// statement failed).
pub(super) fn decode(
    plan: &Plan,
    outcome: Outcome,
    version_sets: &[Outcome],
) -> (Outcome, Accesses) {
    let mut accesses = Accesses::default();
    let (sets, untracked) = match plan {
        Plan::Untracked(why) => {
            accesses.untracked.push(why.clone());
            return (visible(outcome), accesses);
        }
        Plan::Write {
            version_sets: sets,
            untracked,
            ..
        }
        | Plan::Read {
            version_sets: sets,
            untracked,
            ..
        } => (sets, untracked),
        Plan::Plain | Plan::CreateTable { .. } => return (visible(outcome), accesses),
    };
    let Outcome::Rows { columns, rows } = outcome else {
        return (visible(outcome), accesses);
    };
    accesses.untracked.extend(untracked.clone());
    for (set, result) in sets.iter().zip(version_sets) {
        match result {
            Outcome::Rows { columns, rows } => {
                read_rows(&set.tables, &set.condition, columns, rows, &mut accesses);
            }
            other => accesses.untracked.push(format!(
                "the version set of {} could not be read: {other}",
                set.tables.join(", ")
            )),
        }
    }
    accesses.version_set_reads = accesses.reads.len();
    match plan {
        Plan::Write {
            kind,
            table,
            condition,
            ..
        } => {
            let count = affected(&columns, &rows);
            accesses.writes = rows
                .iter()
                .map(|row| written(*kind, table, &columns, row))
                .collect();
            before_own_writes(&mut accesses);
            accesses.version_set_reads = accesses.reads.len();
            if *kind != WriteKind::Insert {
                let matched = accesses
                    .writes
                    .iter()
                    .map(|w| Read {
                        row: w.row.clone(),
                        version: w.overwrote,
                    })
                    .collect();
                accesses.predicates.push(Predicate {
                    table: table.clone(),
                    condition: condition.clone(),
                    matched,
                });
            }
            (Outcome::Affected { count }, accesses)
        }
        Plan::Read {
            tables, condition, ..
        } => {
            read_rows(tables, condition, &columns, &rows, &mut accesses);
            (visible(Outcome::Rows { columns, rows }), accesses)
        }
        Plan::Plain | Plan::CreateTable { .. } | Plan::Untracked(_) => {
            unreachable!("handled above")
        }
    }
}

/// A write's version-set reads of its own table run after it: where they show a row it wrote,
/// its subqueries saw the version it replaced (an update's), or no version at all (a row it
/// inserted).
fn before_own_writes(accesses: &mut Accesses) {
    let replaced: HashMap<RowId, Option<Version>> = (accesses.writes.iter())
        .map(|w| (w.row.clone(), w.overwrote))
        .collect();
    let before = |reads: &mut Vec<Read>| {
        reads.retain_mut(|r| match replaced.get(&r.row) {
            None => true,
            Some(None) => false,
            Some(Some(v)) => {
                r.version = Some(*v);
                true
            }
        })
    };
    before(&mut accesses.reads);
    for p in &mut accesses.predicates {
        before(&mut p.matched);
    }
}

/// The row versions in `rows` (columns `txh_r{i}`, `txh_v{i}` for the `i`-th of `tables`),
/// added to `accesses` as reads and, per table, a predicate `condition` that matched them.
fn read_rows(
    tables: &[String],
    condition: &Option<String>,
    columns: &[String],
    rows: &[Row],
    accesses: &mut Accesses,
) {
    let index = |name: &str| columns.iter().position(|c| c.eq_ignore_ascii_case(name));
    for (i, table) in tables.iter().enumerate() {
        let (Some(r), Some(v)) = (index(&format!("txh_r{i}")), index(&format!("txh_v{i}"))) else {
            continue;
        };
        let matched: Vec<Read> = rows
            .iter()
            .filter_map(|row| match row[r] {
                Value::Int(rid) => Some(Read {
                    row: RowId {
                        table: table.clone(),
                        rid,
                    },
                    version: Version::from_value(&row[v]),
                }),
                _ => None,
            })
            .collect();
        accesses.reads.extend(matched.iter().cloned());
        accesses.predicates.push(Predicate {
            table: table.clone(),
            condition: condition.clone(),
            matched,
        });
    }
}

/// `outcome` without the hidden columns a result set shows (`SELECT *` of an instrumented
/// table, the row ids and versions a read returns).
fn visible(outcome: Outcome) -> Outcome {
    let Outcome::Rows { columns, rows } = outcome else {
        return outcome;
    };
    let keep: Vec<usize> = (0..columns.len())
        .filter(|&c| !is_hidden(&columns[c]))
        .collect();
    Outcome::Rows {
        columns: keep.iter().map(|&c| columns[c].clone()).collect(),
        rows: rows
            .iter()
            .map(|row| keep.iter().map(|&c| row[c].clone()).collect())
            .collect(),
    }
}

/// A write's affected-row count: its rows, or, from the trigger log, their weights.
fn affected(columns: &[String], rows: &[Row]) -> u64 {
    match columns.iter().position(|c| c == WEIGHT) {
        None => rows.len() as u64,
        Some(w) => rows
            .iter()
            .map(|row| match row[w] {
                Value::Int(n) => n.max(0) as u64,
                _ => 0,
            })
            .sum(),
    }
}

/// One row of a write's `RETURNING` list (`txh_rid, txh_prev, txh_ver, user columns…`).
fn written(kind: WriteKind, table: &str, columns: &[String], row: &Row) -> Write {
    let rid = match row.first() {
        Some(Value::Int(rid)) => *rid,
        _ => 0,
    };
    let previous = row.get(1).and_then(Version::from_value);
    let current = row.get(2).and_then(Version::from_value);
    // An upsert that updated reports the version it replaced; a plain insert none.
    let (kind, overwrote) = match kind {
        WriteKind::Insert if previous.is_some() => (WriteKind::Update, previous),
        WriteKind::Insert => (WriteKind::Insert, None),
        WriteKind::Update => (WriteKind::Update, previous),
        WriteKind::Delete => (WriteKind::Delete, current),
    };
    Write {
        row: RowId {
            table: table.to_string(),
            rid,
        },
        kind,
        overwrote,
        image: (3..row.len())
            .filter(|&c| !columns.get(c).is_some_and(|name| is_hidden(name)))
            .map(|c| row[c].clone())
            .collect(),
    }
}
