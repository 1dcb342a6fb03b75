//! dbcop's JSON histories, in the form `dbcop verify --input-dir DIR` reads from each `.json`
//! file of a directory.
//!
//! Sources (github.com/rnbguy/dbcop, the maintained rewrite by the OOPSLA 2019 paper's first
//! author; the paper's version kept histories in bincode): `docs/history-format.md`
//! ("Standalone Format (CLI)"), the serde types in `crates/core/src/history/raw/types.rs` and
//! `crates/testgen/src/generator.rs` (the `History` wrapper `verify` deserializes), the
//! validation in `crates/core/src/history/raw/mod.rs` and the checkers of
//! `crates/core/src/consistency/`, read at commit b4af1b7e8357.
//!
//! - The file is `{"params", "info", "start", "end", "data"}`. `params` is the generator's
//!   metadata (`id` 0, `n_node` sessions, `n_variable` keys, `n_transaction` the most
//!   transactions of a session, `n_event` the most events of a transaction); `start` and `end`
//!   are RFC 3339 times the checker does not use: txhunt records none, so both are the Unix
//!   epoch. `data` is the raw history (what dbcop's WASM API takes alone).
//! - `data` has one array per session that has a transaction here, in order of first
//!   appearance in the case; each holds the session's transactions in order,
//!   `{"events": [...], "committed": bool}`; an event is `{"Read": {"variable", "version"}}` or
//!   `{"Write": {"variable", "version"}}`. dbcop orders a session's transactions (session
//!   order is part of every level it checks).
//! - Transactions are the run's, as Adya judges them: the committed ones, and after an error
//!   aborted a transaction, each later statement of it that succeeded (it ran on its own, in
//!   autocommit mode, and committed) as a committed transaction of its own, right after the
//!   aborted one in its session.
//! - What a `ROLLBACK TO SAVEPOINT` undid never became part of the committed state: those
//!   statements' writes are an uncommitted transaction of their own (right after theirs, in
//!   its session), their reads stay their transaction's.
//! - dbcop linearizes *every* transaction it is given, `committed: false` ones too (it checks
//!   their reads and orders their writes), while isolation levels constrain committed
//!   transactions only. So a transaction that did not commit (rolled back, aborted, never
//!   ended) keeps only the writes some committed transaction here read (its reads and other
//!   writes are left out), with `committed: false`, so that dbcop reports the aborted read
//!   (`UncommittedWrite`); one with no such write is left out.
//! - Variables are the rows numbered from 0 in row order (table, then row id). Versions are
//!   non-negative integers: a step's writes have its
//!   [`txhunt_model::access::Version::to_column`] number, positive, and a DELETE the deleting
//!   step's number (the tombstone of the module `export`). Every read names a write or the
//!   initial state: a read of a setup's version, or of one no instrumented statement wrote,
//!   has version `null` (dbcop's uninitialized variable, read from its root transaction;
//!   version 0 would mean the same, and no step has it). Predicates cannot be expressed.
//! - dbcop requires a version to be written once per variable (`get_all_writes`): a statement
//!   that wrote a row twice (a multi-row upsert) has one write event for it.
//! - A transaction's reads of its own writes are left out: dbcop's atomic history ignores
//!   them, and its validation (`committed_external_reads`) refuses a read of a version its own
//!   transaction overwrote later (an UPDATE's read of the version it replaces, when an earlier
//!   statement of its transaction wrote the row).
//! - A read of the version another transaction wrote that its transaction read of the row last
//!   (no write of the row between) is left out: it constrains nothing, and dbcop's
//!   read-committed saturation
//!   (`check_committed_read`, which every level runs first) turns two reads of one version
//!   another transaction wrote into a self-loop of its committed order, refusing the history.

use super::{micro_ops, MicroOp, Transaction};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use txhunt_model::access::{RowId, Version};
use txhunt_model::{History, StmtKind, TestCase, TxnStatus};

/// The wrapper `dbcop verify` deserializes.
#[derive(Serialize)]
struct DbcopHistory {
    params: Params,
    info: String,
    start: &'static str,
    end: &'static str,
    data: Vec<Vec<DbcopTxn>>,
}

/// The generator's metadata.
#[derive(Serialize)]
struct Params {
    id: usize,
    n_node: usize,
    n_variable: usize,
    n_transaction: usize,
    n_event: usize,
}

#[derive(Serialize)]
struct DbcopTxn {
    events: Vec<DbcopEvent>,
    committed: bool,
}

#[derive(Serialize)]
enum DbcopEvent {
    Read { variable: u64, version: Option<u64> },
    Write { variable: u64, version: u64 },
}

/// The time `start` and `end` give.
const EPOCH: &str = "1970-01-01T00:00:00Z";

/// One transaction as dbcop gets it.
struct Unit<'a> {
    /// Index into [`TestCase::sessions`].
    session: usize,
    ops: Vec<MicroOp<'a>>,
    committed: bool,
}

/// `txns`, of `history`, an execution of `case`, as a dbcop history.
pub(super) fn history(txns: &[Transaction<'_>], case: &TestCase, history: &History) -> String {
    let mut units = units(txns, case, history);
    // The versions committed transactions read: the only writes of the others dbcop gets.
    let read: HashSet<(&RowId, usize)> = (units.iter().filter(|u| u.committed))
        .flat_map(|u| &u.ops)
        .filter_map(|op| match *op {
            MicroOp::Read(row, Some(Version::Step(s))) => Some((row, s)),
            _ => None,
        })
        .collect();
    for unit in &mut units {
        let mut written = HashSet::new();
        // Per row, the version this transaction last read of it (`None` after a write).
        let mut last_read: HashMap<&RowId, Option<Version>> = HashMap::new();
        let committed = unit.committed;
        unit.ops.retain(|op| match *op {
            MicroOp::Read(row, version) => {
                let previous = last_read.insert(row, version);
                let other = matches!(version, Some(Version::Step(_)));
                committed && (!other || previous != Some(version))
            }
            MicroOp::Write(row, s) => {
                last_read.remove(row);
                (committed || read.contains(&(row, s))) && written.insert((row, s))
            }
        });
    }
    units.retain(|u| !u.ops.is_empty());
    let rows: BTreeSet<&RowId> = units
        .iter()
        .flat_map(|u| u.ops.iter().map(|op| op.row()))
        .collect();
    let keys: BTreeMap<&RowId, u64> = rows.into_iter().zip(0..).collect();
    let mut data: Vec<Vec<DbcopTxn>> = case.sessions().iter().map(|_| Vec::new()).collect();
    for unit in &units {
        let events = (unit.ops.iter())
            .map(|&op| {
                let variable = keys[op.row()];
                match op {
                    MicroOp::Read(_, version) => DbcopEvent::Read {
                        variable,
                        version: super::read_number(version),
                    },
                    MicroOp::Write(_, step) => DbcopEvent::Write {
                        variable,
                        version: super::step_number(step),
                    },
                }
            })
            .collect();
        if let Some(session) = data.get_mut(unit.session) {
            session.push(DbcopTxn {
                events,
                committed: unit.committed,
            });
        }
    }
    data.retain(|session| !session.is_empty());
    let dbcop = DbcopHistory {
        params: Params {
            id: 0,
            n_node: data.len(),
            n_variable: keys.len(),
            n_transaction: data.iter().map(Vec::len).max().unwrap_or(0),
            n_event: units.iter().map(|u| u.ops.len()).max().unwrap_or(0),
        },
        info: format!(
            "txhunt: {} on {} at {}",
            case.header.id.as_deref().unwrap_or("case"),
            history.target,
            history.isolation.name()
        ),
        start: EPOCH,
        end: EPOCH,
        data,
    };
    serde_json::to_string_pretty(&dbcop).expect("plain data serializes") + "\n"
}

/// The run's transactions (see the module documentation), each with its micro-ops less its
/// reads of its own writes.
fn units<'a>(txns: &[Transaction<'a>], case: &TestCase, history: &'a History) -> Vec<Unit<'a>> {
    let steps = case.txns();
    let ops = |steps: &[usize], own: &[usize]| -> Vec<MicroOp<'a>> {
        (steps.iter())
            .filter_map(|&s| Some((s, history.steps.get(s)?.accesses.as_ref()?)))
            .flat_map(|(s, accesses)| micro_ops(s, accesses))
            .filter(
                |op| !matches!(*op, MicroOp::Read(_, Some(Version::Step(v))) if own.contains(&v)),
            )
            .collect()
    };
    let mut units = Vec::new();
    for t in txns {
        let own = steps.get(t.id).map_or(&[][..], |txn| &txn.steps[..]);
        let (ran, after): (Vec<usize>, Vec<usize>) = match *t.status {
            TxnStatus::Aborted { step, .. } => own.iter().partition(|&&s| s <= step),
            _ => (own.to_vec(), Vec::new()),
        };
        let committed = t.status.committed();
        let undone = match committed {
            true => undone_by_savepoints(case, history, &ran),
            false => Vec::new(),
        };
        let (kept, undone): (Vec<MicroOp<'a>>, Vec<MicroOp<'a>>) = (ops(&ran, own).into_iter())
            .partition(|op| !matches!(*op, MicroOp::Write(_, s) if undone.contains(&s)));
        for (ops, committed) in [(kept, committed), (undone, false)] {
            units.push(Unit {
                session: t.session,
                ops,
                committed,
            });
        }
        for s in after {
            let ran = case
                .steps
                .get(s)
                .is_some_and(|step| !step.stmt.kind().is_transaction_control())
                && history.steps.get(s).is_some_and(|r| r.outcome.succeeded());
            if ran {
                units.push(Unit {
                    session: t.session,
                    ops: ops(&[s], &[s]),
                    committed: true,
                });
            }
        }
    }
    units
}

/// The steps among `steps` (one transaction's, in order) whose effects a later successful
/// `ROLLBACK TO SAVEPOINT` of the transaction undid.
fn undone_by_savepoints(case: &TestCase, history: &History, steps: &[usize]) -> Vec<usize> {
    let name = |s: usize| {
        let sql = case.steps[s].stmt.sql.trim().trim_end_matches(';');
        let last = sql.rsplit(char::is_whitespace).next().unwrap_or("");
        last.trim_matches(|c| c == '"' || c == '`')
            .to_ascii_lowercase()
    };
    // The savepoints in force: name, and position in `steps` where each was set.
    let mut savepoints: Vec<(String, usize)> = Vec::new();
    let mut undone = Vec::new();
    for (at, &s) in steps.iter().enumerate() {
        if !history.steps.get(s).is_some_and(|r| r.outcome.succeeded()) {
            continue;
        }
        let found =
            |savepoints: &[(String, usize)]| savepoints.iter().rposition(|p| p.0 == name(s));
        match case.steps[s].stmt.kind() {
            StmtKind::Savepoint => savepoints.push((name(s), at)),
            StmtKind::Release => {
                if let Some(i) = found(&savepoints) {
                    savepoints.truncate(i);
                }
            }
            StmtKind::RollbackTo => {
                if let Some(i) = found(&savepoints) {
                    undone.extend_from_slice(&steps[savepoints[i].1 + 1..at]);
                    savepoints.truncate(i + 1);
                }
            }
            _ => {}
        }
    }
    undone
}

#[cfg(test)]
mod tests {
    use super::super::{export, HistoryFormat};
    use serde_json::json;
    use txhunt_model::access::{Accesses, Read, RowId, Version, Write, WriteKind};
    use txhunt_model::error::{DbError, ErrorClass};
    use txhunt_model::{scenario, Event, Outcome};
    use txhunt_model::{TxnRecord, TxnStatus};

    fn row(rid: i64) -> RowId {
        RowId {
            table: "t".into(),
            rid,
        }
    }

    fn read(rid: i64, version: Option<Version>) -> Read {
        Read {
            row: row(rid),
            version,
        }
    }

    /// An UPDATE's write of row `rid` over version `overwrote`.
    fn update(rid: i64, overwrote: Option<Version>) -> Write {
        Write {
            row: row(rid),
            kind: WriteKind::Update,
            overwrote,
            image: Vec::new(),
        }
    }

    /// Pins the file `dbcop verify` reads: the wrapper, the event encoding, `null` for the
    /// initial state, one write event for a row a statement wrote twice, no read of the
    /// transaction's own write nor again of another's version it read last, the write a `ROLLBACK TO
    /// SAVEPOINT` undid an uncommitted transaction of its own, the reads of an aborted
    /// transaction left out and only its write a committed one read kept, and its statement
    /// that succeeded after the abort a committed transaction of its own.
    #[test]
    fn the_file_is_dbcops_standalone_history() {
        let text = "\
-- id: pinned
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);
/* init */ INSERT INTO t VALUES (1, 10), (2, 20), (3, 30);
/* t1 */ BEGIN;
/* t1 */ SELECT * FROM t WHERE k < 3;
/* t2 */ BEGIN;
/* t2 */ UPDATE t SET v = 0 WHERE k > 1;
/* t1 */ INSERT INTO t VALUES (1, 5), (1, 6) ON CONFLICT (k) DO UPDATE SET v = 1;
/* t1 */ SAVEPOINT sp;
/* t1 */ UPDATE t SET v = 9 WHERE k = 1;
/* t1 */ ROLLBACK TO SAVEPOINT sp;
/* t1 */ COMMIT;
/* t2 */ UPDATE t SET v = 1 WHERE k = 1;
/* t2 */ UPDATE t SET v = 2 WHERE k = 2;
/* t2 */ COMMIT;
/* t3 */ SELECT * FROM t;
";
        let case = scenario::parse(text, "pinned.sql").unwrap();
        let init = Some(Version::Init(1));
        let step = |s| Some(Version::Step(s));
        let reads = |reads: Vec<Read>| Accesses {
            reads,
            ..Accesses::default()
        };
        let writes = |writes: Vec<Write>| Accesses {
            writes,
            ..Accesses::default()
        };
        let none = Accesses::default;
        let accesses: Vec<Accesses> = vec![
            none(),
            reads(vec![read(1, init), read(2, init)]),
            none(),
            writes(vec![update(2, init), update(3, init)]),
            writes(vec![update(1, init), update(1, step(4))]),
            none(),
            writes(vec![update(1, step(4))]),
            none(),
            none(),
            none(),
            writes(vec![update(2, init)]),
            none(),
            reads(vec![
                read(1, step(6)),
                read(2, step(10)),
                read(3, step(3)),
                read(2, step(10)),
            ]),
        ];
        let deadlock = Outcome::Error(DbError {
            class: ErrorClass::Deadlock,
            code: None,
            message: "deadlock".into(),
        });
        let mut history = crate::export::recorded(accesses, |s| {
            if s == 9 {
                deadlock.clone()
            } else {
                Outcome::Ok
            }
        });
        history.schedule = (0..13).map(|step| Event::Completed { step }).collect();
        history.txns = [
            TxnStatus::Committed,
            TxnStatus::Aborted {
                step: 9,
                rollback_sent: false,
            },
            TxnStatus::Committed,
        ]
        .into_iter()
        .zip(["t1", "t2", "t3"])
        .map(|(status, label)| TxnRecord {
            label: label.into(),
            status,
        })
        .collect();
        let text = export(HistoryFormat::Dbcop, &case, &history).unwrap();
        let r = |variable: u64, version: Option<u64>| json!({"Read": {"variable": variable, "version": version}});
        let w = |variable: u64, version: u64| json!({"Write": {"variable": variable, "version": version}});
        let expected = json!({
            "params": {"id": 0, "n_node": 3, "n_variable": 3, "n_transaction": 2, "n_event": 4},
            "info": "txhunt: pinned on sqlite at read-uncommitted",
            "start": "1970-01-01T00:00:00Z",
            "end": "1970-01-01T00:00:00Z",
            "data": [
                [
                    {"events": [r(0, None), r(1, None), r(0, None), w(0, 5)], "committed": true},
                    {"events": [w(0, 7)], "committed": false}
                ],
                [
                    {"events": [w(2, 4)], "committed": false},
                    {"events": [r(1, None), w(1, 11)], "committed": true}
                ],
                [{"events": [r(0, Some(7)), r(1, Some(11)), r(2, Some(4))], "committed": true}]
            ]
        });
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&text).unwrap(),
            expected
        );
        assert!(text.ends_with("}\n"));
    }
}
