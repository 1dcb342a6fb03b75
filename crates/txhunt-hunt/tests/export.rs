//! Exported histories of real instrumented runs on SQLite: each format's output is read back
//! by a parser written here from the format's documentation (Elle's rw-register JSON as
//! elle-cli reads it, Plume's `TextHistoryLoader` lines, dbcop's documented JSON schema) and
//! says exactly what the scenario's transactions read and wrote.

use serde::Deserialize;
use serde_json::{json, Value as Json};
use std::path::Path;
use txhunt_db::open_target;
use txhunt_exec::Executor;
use txhunt_hunt::export::{export, HistoryFormat, NotInstrumented};
use txhunt_model::access::Version;
use txhunt_model::{scenario, History, Isolation, TestCase};
use txhunt_sql::instrument::ROWS_PER_STATEMENT;

fn lost_update() -> TestCase {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/instrumented/lost-update.sql");
    scenario::parse(&std::fs::read_to_string(&path).unwrap(), "lost-update.sql").unwrap()
}

/// An INSERT and a DELETE in autocommit on one session, a read of the inserted row on another.
fn insert_delete() -> TestCase {
    let text = "\
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v INT);
/* init */ INSERT INTO t VALUES (1, 10);
/* t1 */ INSERT INTO t VALUES (2, 20);
/* t1 */ DELETE FROM t WHERE k = 1;
/* t2 */ SELECT * FROM t;
";
    scenario::parse(text, "insert-delete.sql").unwrap()
}

fn run(case: &TestCase, level: Isolation) -> History {
    let sqlite = open_target("sqlite", None).unwrap();
    Executor::default()
        .execute_instrumented(sqlite.as_ref(), case, level)
        .unwrap()
}

fn exported(format: HistoryFormat, case: &TestCase, history: &History) -> String {
    export(format, case, history).unwrap()
}

/// The hidden row id of the `j`-th row the statement writing `version` inserted.
fn rid(version: Version, j: i64) -> i64 {
    version.to_column() * ROWS_PER_STATEMENT + j
}

/// A version's number, as Elle's values give it.
fn num(version: Version) -> i64 {
    version.to_column()
}

/// Step `s`'s version number, as Plume's and dbcop's values give it.
fn step(s: usize) -> u64 {
    num(Version::Step(s)) as u64
}

/// Row 1 of the lost-update scenario: the setup's INSERT (setup statement 1) wrote it first.
const INIT: Version = Version::Init(1);

// ---- txhunt's own JSON ------------------------------------------------------------------

fn field<'a>(json: &'a Json, key: &str) -> &'a Json {
    json.get(key)
        .unwrap_or_else(|| panic!("no field {key:?} in {json}"))
}

fn keys(json: &Json) -> Vec<&str> {
    let mut keys: Vec<&str> = json
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    keys
}

#[test]
fn json_lists_transactions_and_each_executed_steps_accesses_in_completion_order() {
    let case = lost_update();
    let history = run(&case, Isolation::Serializable);
    let json: Json = serde_json::from_str(&exported(HistoryFormat::Json, &case, &history)).unwrap();
    assert_eq!(
        keys(&json),
        ["isolation", "steps", "tables", "target", "transactions"]
    );
    assert_eq!(field(&json, "target"), "sqlite");
    assert_eq!(field(&json, "isolation"), "serializable");
    let txns = field(&json, "transactions").as_array().unwrap();
    let fates: Vec<Json> = (txns.iter())
        .map(|t| json!([field(t, "label"), field(t, "session"), field(t, "status")]))
        .collect();
    assert_eq!(
        fates,
        [
            json!(["t1", "t1", "committed"]),
            json!(["t2", "t2", "aborted"])
        ]
    );
    // t2's UPDATE (step 6) is the one SQLite refused.
    assert_eq!(field(&txns[1], "step"), 6);

    let steps = field(&json, "steps").as_array().unwrap();
    let order: Vec<u64> = steps
        .iter()
        .map(|s| field(s, "step").as_u64().unwrap())
        .collect();
    assert_eq!(order, [0, 1, 2, 3, 4, 5, 6, 7]);
    for s in steps {
        assert_eq!(
            keys(s),
            [
                "predicates",
                "reads",
                "sql",
                "step",
                "txn",
                "untracked",
                "writes"
            ]
        );
    }
    let row1 = json!({"table": "t", "rid": rid(INIT, 0)});
    assert_eq!(field(&steps[1], "txn"), "t1");
    assert_eq!(field(&steps[1], "sql"), "SELECT v FROM t WHERE k = 1");
    assert_eq!(
        field(&steps[1], "reads"),
        &json!([{"row": row1, "version": {"init": 1}}])
    );
    let write = &field(&steps[4], "writes")[0];
    assert_eq!(field(write, "row"), &row1);
    assert_eq!(field(write, "kind"), "update");
    assert_eq!(field(write, "overwrote"), &json!({"init": 1}));
    assert_eq!(
        field(&field(&steps[4], "predicates")[0], "condition"),
        "k = 1"
    );
    assert_eq!(field(&steps[6], "writes"), &json!([]));
    assert_eq!(field(&field(&json, "tables")[0], "key"), &json!(["k"]));
}

// ---- Elle ---------------------------------------------------------------------------------

/// A micro-op as Elle's rw-register takes it: `[f, key, value]`.
type Mop = (String, String, Option<i64>);

/// One operation: its type, process and micro-ops.
type ElleOp = (String, u64, Vec<Mop>);

/// Reads an rw-register history in the JSON form elle-cli reads (its README and
/// `histories/elle/rw-register.json`): an array of `{type, f, value, process, index}` objects,
/// `f` `"txn"`, `index` counting from 0, `value` a list of `["r"|"w", key, value]` with every
/// key a string and every value an integer (or null for a read), each process alternating an
/// `invoke` (reads null) and its completion (`ok`, `fail` or `info`) with the same micro-ops.
fn parse_elle(text: &str) -> Vec<ElleOp> {
    let json: Json = serde_json::from_str(text).expect("one JSON value");
    let mut ops = Vec::new();
    let mut open: Vec<(u64, Vec<Mop>)> = Vec::new();
    for (index, op) in json.as_array().expect("an array").iter().enumerate() {
        assert_eq!(keys(op), ["f", "index", "process", "type", "value"], "{op}");
        assert_eq!(field(op, "index").as_u64(), Some(index as u64), "{op}");
        assert_eq!(field(op, "f"), "txn");
        let kind = field(op, "type").as_str().unwrap().to_string();
        let process = field(op, "process").as_u64().expect("a process number");
        let mops: Vec<Mop> = (field(op, "value").as_array().unwrap().iter())
            .map(|mop| {
                let [f, key, value] = mop.as_array().unwrap().as_slice() else {
                    panic!("not [f, key, value]: {mop}");
                };
                let f = f.as_str().unwrap().to_string();
                assert!(f == "r" || (f == "w" && !value.is_null()), "{mop}");
                assert!(value.is_null() || value.is_i64(), "{mop}");
                (
                    f,
                    key.as_str().expect("a string key").into(),
                    value.as_i64(),
                )
            })
            .collect();
        let invoked = open.iter().position(|(p, _)| *p == process);
        match (kind.as_str(), invoked) {
            ("invoke", None) => {
                assert!(mops.iter().all(|(f, _, v)| f == "w" || v.is_none()));
                open.push((process, mops.clone()));
            }
            ("ok" | "fail" | "info", Some(at)) => {
                let (_, invoke) = open.remove(at);
                let shape = |m: &[Mop]| -> Vec<Mop> {
                    m.iter()
                        .map(|(f, k, v)| (f.clone(), k.clone(), v.filter(|_| f == "w")))
                        .collect()
                };
                assert_eq!(shape(&invoke), shape(&mops), "{op}");
                if kind != "ok" {
                    assert_eq!(invoke, mops, "a {kind} reports no reads");
                }
            }
            _ => panic!("{kind} out of turn for process {process}: {op}"),
        }
        ops.push((kind, process, mops));
    }
    assert!(open.is_empty(), "operations never completed: {open:?}");
    ops
}

fn mop(f: &str, key: i64, value: Option<i64>) -> Mop {
    (f.into(), format!("t:{key}"), value)
}

#[test]
fn elle_serializable_lost_update_is_an_ok_and_a_fail_overlapping_in_real_time() {
    let case = lost_update();
    let history = run(&case, Isolation::Serializable);
    let ops = parse_elle(&exported(HistoryFormat::Elle, &case, &history));
    let row1 = rid(INIT, 0);
    // t1: its SELECT read the setup's version, its UPDATE read and replaced it.
    let t1 = |v: Option<i64>| {
        vec![
            mop("r", row1, v),
            mop("r", row1, v),
            mop("w", row1, Some(num(Version::Step(4)))),
        ]
    };
    let t2 = vec![mop("r", row1, None)];
    assert_eq!(
        ops,
        [
            ("invoke".into(), 0, t1(None)),
            ("invoke".into(), 1, t2.clone()),
            ("ok".into(), 0, t1(Some(num(INIT)))),
            ("fail".into(), 1, t2),
        ]
    );
}

#[test]
fn elle_read_uncommitted_lost_update_has_t2_replace_t1s_version() {
    let case = lost_update();
    let history = run(&case, Isolation::ReadUncommitted);
    let ops = parse_elle(&exported(HistoryFormat::Elle, &case, &history));
    let row1 = rid(INIT, 0);
    let (init, t1_wrote) = (Some(num(INIT)), Some(num(Version::Step(4))));
    let completions: Vec<&ElleOp> = ops.iter().filter(|op| op.0 != "invoke").collect();
    assert_eq!(
        completions,
        [
            &(
                "ok".into(),
                0,
                vec![
                    mop("r", row1, init),
                    mop("r", row1, init),
                    mop("w", row1, t1_wrote)
                ]
            ),
            &(
                "ok".into(),
                1,
                vec![
                    mop("r", row1, init),
                    mop("r", row1, t1_wrote),
                    mop("w", row1, Some(num(Version::Step(6))))
                ]
            ),
        ]
    );
}

#[test]
fn elle_inserts_only_write_and_deletes_write_their_steps_tombstone() {
    let case = insert_delete();
    let history = run(&case, Isolation::Serializable);
    let ops = parse_elle(&exported(HistoryFormat::Elle, &case, &history));
    let (old, new) = (rid(INIT, 0), rid(Version::Step(0), 0));
    let inserted = Some(num(Version::Step(0)));
    let oks: Vec<&ElleOp> = ops.iter().filter(|op| op.0 == "ok").collect();
    assert_eq!(
        oks,
        [
            &("ok".into(), 0, vec![mop("w", new, inserted)]),
            &(
                "ok".into(),
                0,
                vec![
                    mop("r", old, Some(num(INIT))),
                    mop("w", old, Some(num(Version::Step(1))))
                ]
            ),
            &("ok".into(), 1, vec![mop("r", new, inserted)]),
        ]
    );
}

// ---- Plume --------------------------------------------------------------------------------

/// One line of a Plume text history.
#[derive(Debug, PartialEq, Eq)]
struct PlumeOp {
    write: bool,
    key: u64,
    value: u64,
    session: u64,
    /// `None`: `-1`, a write of an aborted transaction.
    txn: Option<u64>,
}

/// Reads a Plume text history, as `TextHistoryLoader` does: every line is
/// `op "(" num "," num "," num "," txn ")"` with `op` `r` or `w`, `num` ASCII digits (a Java
/// long), `txn` a `num` or `-1` (an aborted write), and nothing else on the line.
fn parse_plume(text: &str) -> Result<Vec<PlumeOp>, String> {
    text.lines()
        .map(|line| {
            Line(line.as_bytes())
                .op()
                .map_err(|e| format!("{line:?}: {e}"))
        })
        .collect()
}

/// A recursive-descent parser over what is left of one line.
struct Line<'a>(&'a [u8]);

impl Line<'_> {
    fn op(mut self) -> Result<PlumeOp, String> {
        let write = match self.next()? {
            b'r' => false,
            b'w' => true,
            c => return Err(format!("no operation {:?}", c as char)),
        };
        self.expect(b'(')?;
        let key = self.number()?;
        self.expect(b',')?;
        let value = self.number()?;
        self.expect(b',')?;
        let session = self.number()?;
        self.expect(b',')?;
        let txn = if self.0.first() == Some(&b'-') {
            self.expect(b'-')?;
            self.expect(b'1')?;
            None
        } else {
            Some(self.number()?)
        };
        self.expect(b')')?;
        match self.0 {
            [] => Ok(PlumeOp {
                write,
                key,
                value,
                session,
                txn,
            }),
            rest => Err(format!("trailing {:?}", String::from_utf8_lossy(rest))),
        }
    }

    fn next(&mut self) -> Result<u8, String> {
        let (&c, rest) = self.0.split_first().ok_or("unexpected end")?;
        self.0 = rest;
        Ok(c)
    }

    fn expect(&mut self, want: u8) -> Result<(), String> {
        match self.next()? {
            c if c == want => Ok(()),
            c => Err(format!("{:?} instead of {:?}", c as char, want as char)),
        }
    }

    fn number(&mut self) -> Result<u64, String> {
        let digits = self.0.iter().take_while(|c| c.is_ascii_digit()).count();
        let (number, rest) = self.0.split_at(digits);
        self.0 = rest;
        std::str::from_utf8(number)
            .ok()
            .and_then(|n| n.parse::<i64>().ok())
            .and_then(|n| u64::try_from(n).ok())
            .ok_or_else(|| "no number".to_string())
    }
}

fn r(key: u64, value: u64, session: u64, txn: u64) -> PlumeOp {
    PlumeOp {
        write: false,
        key,
        value,
        session,
        txn: Some(txn),
    }
}

fn w(key: u64, value: u64, session: u64, txn: u64) -> PlumeOp {
    PlumeOp {
        write: true,
        ..r(key, value, session, txn)
    }
}

#[test]
fn plume_parser_takes_exactly_the_loaders_lines() {
    assert_eq!(
        parse_plume("r(0,0,0,0)\nw(3,7,1,2)\nw(1,2,0,-1)\n"),
        Ok(vec![
            r(0, 0, 0, 0),
            w(3, 7, 1, 2),
            PlumeOp {
                txn: None,
                ..w(1, 2, 0, 0)
            }
        ])
    );
    assert_eq!(parse_plume(""), Ok(vec![]), "an empty history");
    for bad in [
        "\n",
        "r(0,0,0,0)\n\nr(0,0,0,0)",
        "r(0,0,0)",
        "r(0, 0,0,0)",
        "x(0,0,0,0)",
        "r(-1,0,0,0)",
        "r(0,0,0,-2)",
        "r(0,0,0,0) ",
        "r(0,0,0,0)x",
        "R(0,0,0,0)",
        "r(0,99999999999999999999,0,0)",
    ] {
        assert!(parse_plume(bad).is_err(), "{bad:?} accepted");
    }
}

#[test]
fn plume_serializable_lost_update_keeps_the_committed_transaction_only() {
    let case = lost_update();
    let history = run(&case, Isolation::Serializable);
    let ops = parse_plume(&exported(HistoryFormat::Plume, &case, &history)).unwrap();
    // Row 1 is key 0; its setup version is Plume's initial value 0. t2 (transaction 1) was
    // aborted having written nothing, so it has no line.
    assert_eq!(ops, [r(0, 0, 0, 0), r(0, 0, 0, 0), w(0, step(4), 0, 0)]);
}

#[test]
fn plume_read_uncommitted_lost_update_numbers_transactions_and_sessions() {
    let case = lost_update();
    let history = run(&case, Isolation::ReadUncommitted);
    let ops = parse_plume(&exported(HistoryFormat::Plume, &case, &history)).unwrap();
    assert_eq!(
        ops,
        [
            r(0, 0, 0, 0),
            r(0, 0, 0, 0),
            w(0, step(4), 0, 0),
            r(0, 0, 1, 1),
            r(0, step(4), 1, 1),
            w(0, step(6), 1, 1),
        ]
    );
}

#[test]
fn plume_numbers_keys_in_row_order_and_gives_autocommit_statements_their_own_txn() {
    let case = insert_delete();
    let history = run(&case, Isolation::Serializable);
    let ops = parse_plume(&exported(HistoryFormat::Plume, &case, &history)).unwrap();
    // Key 0: the setup's row (negative row id); key 1: the one step 0 inserted.
    assert_eq!(
        ops,
        [
            w(1, step(0), 0, 0),
            r(0, 0, 0, 1),
            w(0, step(1), 0, 1),
            r(1, step(0), 1, 2),
        ]
    );
}

// ---- dbcop --------------------------------------------------------------------------------

/// dbcop's standalone history file (`docs/history-format.md`), field by field.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct DbcopFile {
    params: DbcopParams,
    info: String,
    start: String,
    end: String,
    data: Vec<Vec<DbcopTxn>>,
}

#[derive(Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
struct DbcopParams {
    id: u64,
    n_node: u64,
    n_variable: u64,
    n_transaction: u64,
    n_event: u64,
}

#[derive(Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
struct DbcopTxn {
    events: Vec<DbcopEvent>,
    committed: bool,
}

#[derive(Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
enum DbcopEvent {
    Read { variable: u64, version: Option<u64> },
    Write { variable: u64, version: u64 },
}

/// Reads a dbcop history and checks the constraints its documentation states: write versions
/// unique per variable, every read of a committed transaction from a committed write or the
/// initial state (`null`), times in RFC 3339.
fn parse_dbcop(text: &str) -> DbcopFile {
    let file: DbcopFile = serde_json::from_str(text).expect("dbcop's schema");
    for time in [&file.start, &file.end] {
        let b = time.as_bytes();
        assert!(
            b.len() == 20 && b[4] == b'-' && b[10] == b'T' && b[19] == b'Z',
            "{time}"
        );
    }
    assert!(file.info.starts_with("txhunt: "), "{}", file.info);
    let txns = || file.data.iter().flatten();
    let mut written = std::collections::HashSet::new();
    for event in txns().flat_map(|t| &t.events) {
        if let DbcopEvent::Write { variable, version } = event {
            assert!(written.insert((*variable, *version)), "{event:?} twice");
        }
    }
    for t in txns().filter(|t| t.committed) {
        for event in &t.events {
            if let DbcopEvent::Read {
                variable,
                version: Some(version),
            } = event
            {
                let committed = txns()
                    .filter(|t| t.committed)
                    .flat_map(|t| &t.events)
                    .any(|e| {
                        *e == DbcopEvent::Write {
                            variable: *variable,
                            version: *version,
                        }
                    });
                assert!(committed, "{event:?} reads no committed write");
            }
        }
    }
    file
}

fn read(variable: u64, version: Option<u64>) -> DbcopEvent {
    DbcopEvent::Read { variable, version }
}

fn write(variable: u64, version: u64) -> DbcopEvent {
    DbcopEvent::Write { variable, version }
}

fn txn(committed: bool, events: Vec<DbcopEvent>) -> DbcopTxn {
    DbcopTxn { events, committed }
}

#[test]
fn dbcop_serializable_lost_update_leaves_out_aborted_t2() {
    let case = lost_update();
    let history = run(&case, Isolation::Serializable);
    let file = parse_dbcop(&exported(HistoryFormat::Dbcop, &case, &history));
    // t2 was aborted having written nothing a committed transaction read: dbcop would check
    // its read as if it had committed, so it is left out, and its session with it.
    let t1 = vec![read(0, None), read(0, None), write(0, step(4))];
    assert_eq!(file.data, [vec![txn(true, t1)]]);
    let params = DbcopParams {
        id: 0,
        n_node: 1,
        n_variable: 1,
        n_transaction: 1,
        n_event: 3,
    };
    assert_eq!(file.params, params);
}

#[test]
fn dbcop_read_uncommitted_lost_update_reads_t1s_write() {
    let case = lost_update();
    let history = run(&case, Isolation::ReadUncommitted);
    let file = parse_dbcop(&exported(HistoryFormat::Dbcop, &case, &history));
    assert_eq!(
        file.data,
        [
            vec![txn(
                true,
                vec![read(0, None), read(0, None), write(0, step(4))]
            )],
            vec![txn(
                true,
                vec![read(0, None), read(0, Some(step(4))), write(0, step(6))]
            )],
        ]
    );
}

#[test]
fn dbcop_session_holds_its_autocommit_transactions_in_order() {
    let case = insert_delete();
    let history = run(&case, Isolation::Serializable);
    let file = parse_dbcop(&exported(HistoryFormat::Dbcop, &case, &history));
    assert_eq!(
        file.data,
        [
            vec![
                txn(true, vec![write(1, step(0))]),
                txn(true, vec![read(0, None), write(0, step(1))]),
            ],
            vec![txn(true, vec![read(1, Some(step(0)))])],
        ]
    );
}

// ---- formats and refusals -----------------------------------------------------------------

#[test]
fn a_plain_history_is_refused_by_every_format() {
    let case = lost_update();
    let sqlite = open_target("sqlite", None).unwrap();
    let plain = Executor::default()
        .execute(sqlite.as_ref(), &case, Isolation::Serializable)
        .unwrap();
    for format in HistoryFormat::ALL {
        assert_eq!(export(format, &case, &plain), Err(NotInstrumented));
    }
    assert_eq!(
        NotInstrumented.to_string(),
        "the history has no read/write sets: run the case instrumented"
    );
}

#[test]
fn formats_are_named_and_unknown_names_refused() {
    for format in HistoryFormat::ALL {
        assert_eq!(format.name().parse::<HistoryFormat>(), Ok(format));
        assert!(format.extension().ends_with(".json") || format.extension().ends_with(".txt"));
    }
    let names: Vec<&str> = HistoryFormat::ALL.iter().map(|f| f.name()).collect();
    assert_eq!(names, ["json", "elle", "plume", "dbcop"]);
    assert_eq!(
        "xml".parse::<HistoryFormat>().unwrap_err().to_string(),
        "unknown history format 'xml'; accepted: json, elle, plume, dbcop"
    );
}
