//! Upstream exports run in the DBMS developers' own tools against real servers: each finding
//! is run by txhunt on a private server, exported with its observed history, and the export
//! run by `isolationtester` (PostgreSQL) or `mariadb-test` (MariaDB) against the same server,
//! or by the `sqllogictest` crate against SQLite; the tool's run must reproduce the outcomes.

use std::path::{Path, PathBuf};
use std::process::Command;
use txhunt_db::testbed::{Server, ServerKind};
use txhunt_db::{open_target, Target};
use txhunt_exec::Executor;
use txhunt_hunt::upstream::{export, UpstreamFormat};
use txhunt_model::{scenario, Event, History, Isolation, Outcome, TestCase, Value};

/// A scenario file of the repository's `tests/` directory.
fn scenario_file(path: &str) -> TestCase {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests")
        .join(path);
    let text = std::fs::read_to_string(&path).unwrap();
    scenario::parse(&text, &path.display().to_string()).unwrap()
}

/// Two transactions that each update one row, then the other's: a deadlock.
fn deadlock() -> TestCase {
    scenario::parse(
        "/* init */ CREATE TABLE test (id INT PRIMARY KEY, value INT);
         /* init */ INSERT INTO test (id, value) VALUES (1, 10), (2, 20);
         /* t1 */ BEGIN;
         /* t2 */ BEGIN;
         /* t1 */ UPDATE test SET value = 11 WHERE id = 1;
         /* t2 */ UPDATE test SET value = 21 WHERE id = 2;
         /* t1 */ UPDATE test SET value = 12 WHERE id = 2;
         /* t2 */ UPDATE test SET value = 22 WHERE id = 1;
         /* t1 */ COMMIT;
         /* t2 */ COMMIT;
        ",
        "deadlock",
    )
    .unwrap()
}

/// `case` run by txhunt on `target` at `level`.
fn observe(target: &dyn Target, case: &TestCase, level: Isolation) -> History {
    Executor::default().execute(target, case, level).unwrap()
}

/// A value as text-protocol clients print it (NULL as `null`).
fn printed(value: &Value, null: &str) -> String {
    match value {
        Value::Null => null.into(),
        Value::Int(i) => i.to_string(),
        Value::Text(s) => s.clone(),
        other => panic!("no test here returns {other:?}"),
    }
}

/// Writes `text` to a file named `name` in `dir`.
fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

// ---- PostgreSQL: isolationtester ------------------------------------------------------------

/// What isolationtester reports of one step: the session, whether this is the step starting
/// to wait, and the rows or the error it printed.
#[derive(Debug, PartialEq, Eq)]
struct Reported {
    session: String,
    waiting: bool,
    rows: Vec<Vec<String>>,
    error: Option<String>,
}

/// The steps isolationtester's `output` reports, in order.
fn reported(output: &str) -> Vec<Reported> {
    let mut steps: Vec<Reported> = Vec::new();
    for line in output.lines() {
        if let Some(rest) = line.strip_prefix("step ") {
            let (name, text) = rest.split_once(": ").unwrap();
            let session = name.rsplit_once('_').unwrap().0.to_string();
            steps.push(Reported {
                session,
                waiting: text.ends_with("<waiting ...>"),
                rows: Vec::new(),
                error: None,
            });
        } else if let (Some(step), Some(message)) =
            (steps.last_mut(), line.strip_prefix("ERROR:  "))
        {
            step.error = Some(message.to_string());
        } else if let Some(step) = steps.last_mut() {
            let header_rule = line.chars().all(|c| c == '-' || c == '+');
            if line.contains('|')
                || (!line.is_empty()
                    && !line.starts_with('(')
                    && !header_rule
                    && !line.contains(": ")
                    && !line.starts_with("starting permutation"))
            {
                step.rows
                    .push(line.split('|').map(|c| c.trim().to_string()).collect());
            }
        }
    }
    // Each result's first line is its header.
    for step in &mut steps {
        if !step.rows.is_empty() {
            step.rows.remove(0);
        }
    }
    steps
}

/// What isolationtester must report of the run `history` recorded.
fn expected_reports(case: &TestCase, history: &History) -> Vec<Reported> {
    let txns = case.txns();
    let plain = |session: &str, waiting: bool, outcome: Option<&Outcome>| Reported {
        session: session.to_string(),
        waiting,
        rows: match outcome {
            Some(Outcome::Rows { rows, .. }) => (rows.iter())
                .map(|r| r.iter().map(|v| printed(v, "")).collect())
                .collect(),
            _ => Vec::new(),
        },
        error: outcome.and_then(Outcome::error).map(|e| e.message.clone()),
    };
    (history.schedule.iter())
        .map(|event| match event {
            Event::Blocked { step } => plain(&case.steps[*step].session, true, None),
            Event::Completed { step } => plain(
                &case.steps[*step].session,
                false,
                Some(&history.steps[*step].outcome),
            ),
            Event::Rollback { txn, outcome } => plain(&txns[*txn].session, false, Some(outcome)),
        })
        .collect()
}

/// isolationtester's output for `spec` on `server`.
fn isolationtester(server: &Server, spec: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "finding.spec", spec);
    let tester = std::fs::read_dir("/usr/lib/postgresql")
        .expect("PostgreSQL is installed (scripts/test installs it)")
        .map(|major| {
            major
                .unwrap()
                .path()
                .join("lib/pgxs/src/test/isolation/isolationtester")
        })
        .find(|p| p.exists())
        .expect("isolationtester is installed (package postgresql-client-15)");
    let conninfo = format!(
        "host=127.0.0.1 port={} user=postgres dbname=postgres",
        server.port()
    );
    let out = Command::new(tester)
        .arg(conninfo)
        .stdin(std::fs::File::open(&path).unwrap())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "isolationtester failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// What a statement did: whether it waited, its rows, its error.
type Did = (bool, Vec<Vec<String>>, Option<String>);

/// Per session, what each of its statements did as isolationtester reports it: whether it
/// waited, its rows, its error. isolationtester reports a step as waiting only when it still
/// waits at its check; a deadlock PostgreSQL detects first (the testbed's `deadlock_timeout`
/// is a few milliseconds) ends the wait before, so for a deadlock's victim the wait is not
/// compared. The order across sessions is not compared either: a statement released by an
/// abort completes when the abort is, which isolationtester prints at once and txhunt saw
/// after its ROLLBACK.
fn per_session(reports: Vec<Reported>) -> Vec<(String, Vec<Did>)> {
    let mut sessions: Vec<(String, Vec<Did>)> = Vec::new();
    let mut waiting: Vec<String> = Vec::new();
    for r in reports {
        if r.waiting {
            waiting.push(r.session);
            continue;
        }
        let waited = match waiting.iter().position(|s| *s == r.session) {
            Some(at) => {
                waiting.remove(at);
                true
            }
            None => false,
        };
        let waited = waited && r.error.as_deref() != Some("deadlock detected");
        let at = match sessions.iter().position(|(s, _)| *s == r.session) {
            Some(at) => at,
            None => {
                sessions.push((r.session.clone(), Vec::new()));
                sessions.len() - 1
            }
        };
        sessions[at].1.push((waited, r.rows, r.error));
    }
    sessions.sort();
    sessions
}

/// Runs `case` at `level` on a private PostgreSQL, exports it as an isolation spec and runs
/// that in isolationtester against the same server, which must report the same outcomes;
/// returns its output.
fn reproduce_on_postgres(case: &TestCase, level: Isolation) -> String {
    let server = Server::start(ServerKind::Postgres, None, None).unwrap();
    let target = open_target(server.url(), None).unwrap();
    let history = observe(target.as_ref(), case, level);
    let spec = export(case, Some(&history), UpstreamFormat::PgIsolationSpec).unwrap();
    let output = isolationtester(&server, &spec);
    assert_eq!(
        per_session(reported(&output)),
        per_session(expected_reports(case, &history)),
        "{spec}\n{output}"
    );
    output
}

#[test]
fn a_lost_update_refused_after_a_wait_reproduces_in_isolationtester() {
    let output = reproduce_on_postgres(
        &scenario_file("hermitage/p4.sql"),
        Isolation::RepeatableRead,
    );
    assert!(output.contains("<waiting ...>"), "{output}");
    assert!(
        output.contains("ERROR:  could not serialize access due to concurrent update"),
        "{output}"
    );
}

#[test]
fn a_deadlock_reproduces_in_isolationtester() {
    let output = reproduce_on_postgres(&deadlock(), Isolation::ReadCommitted);
    assert!(output.contains("ERROR:  deadlock detected"), "{output}");
}

#[test]
fn a_write_skew_refused_at_serializable_reproduces_in_isolationtester() {
    let output = reproduce_on_postgres(
        &scenario_file("hermitage/g2-item.sql"),
        Isolation::Serializable,
    );
    assert!(output.contains("could not serialize access"), "{output}");
}

#[test]
fn isolationtester_output_that_differs_is_caught() {
    let case = scenario_file("hermitage/g2-item.sql");
    let server = Server::start(ServerKind::Postgres, None, None).unwrap();
    let target = open_target(server.url(), None).unwrap();
    // Observed at REPEATABLE READ (both commit), run at SERIALIZABLE (one fails).
    let history = observe(target.as_ref(), &case, Isolation::RepeatableRead);
    let mut serializable = history.clone();
    serializable.isolation = Isolation::Serializable;
    let spec = export(&case, Some(&serializable), UpstreamFormat::PgIsolationSpec).unwrap();
    let output = isolationtester(&server, &spec);
    assert_ne!(
        per_session(reported(&output)),
        per_session(expected_reports(&case, &history))
    );
}

// ---- MariaDB: mariadb-test --------------------------------------------------------------------

/// Runs `test` with `result` in mariadb-test against `server`, in a fresh database; its exit
/// status and output.
fn mariadb_test(server: &Server, test: &str, result: &str) -> (bool, String) {
    let dir = tempfile::tempdir().unwrap();
    let test_path = write(dir.path(), "finding.test", test);
    let result_path = write(dir.path(), "finding.result", result);
    let port = format!("--port={}", server.port());
    let socket = format!("--socket={}", server.dir().unwrap().join("sock").display());
    let database = txhunt_db::fresh_database_name();
    let created = Command::new("mariadb")
        .args([
            "--host=127.0.0.1",
            &port,
            "--user=root",
            "-e",
            &format!("CREATE DATABASE {database}"),
        ])
        .status()
        .expect("the mariadb client is installed (package mariadb-client)");
    assert!(created.success());
    let out = Command::new("mariadb-test")
        .args([
            "--host=127.0.0.1",
            &port,
            &socket,
            "--user=root",
            &format!("--database={database}"),
        ])
        .arg(format!("--test-file={}", test_path.display()))
        .arg(format!("--result-file={}", result_path.display()))
        .arg(format!("--tmpdir={}", dir.path().display()))
        .output()
        .expect("mariadb-test is installed (package mariadb-test)");
    let output = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), output)
}

/// Runs `case` at `level` on a private MariaDB, exports it as a mysqltest test and result,
/// and runs them in mariadb-test against the same server, which must pass; returns the test.
fn reproduce_on_mariadb(case: &TestCase, level: Isolation) -> String {
    let server = Server::start(ServerKind::Mariadb, None, None).unwrap();
    let target = open_target(server.url(), None).unwrap();
    let history = observe(target.as_ref(), case, level);
    let test = export(case, Some(&history), UpstreamFormat::Mysqltest).unwrap();
    let result = export(case, Some(&history), UpstreamFormat::MysqltestResult).unwrap();
    let (passed, output) = mariadb_test(&server, &test, &result);
    assert!(passed, "{test}\n{result}\n{output}");
    test
}

#[test]
fn a_lost_update_after_a_wait_reproduces_in_mariadb_test() {
    let test = reproduce_on_mariadb(
        &scenario_file("hermitage/p4.sql"),
        Isolation::RepeatableRead,
    );
    assert!(
        test.contains("send UPDATE test SET value = 11 WHERE id = 1;"),
        "{test}"
    );
    assert!(test.contains("reap;"), "{test}");
}

#[test]
fn a_deadlock_reproduces_in_mariadb_test() {
    let test = reproduce_on_mariadb(&deadlock(), Isolation::RepeatableRead);
    assert!(test.contains("--error ER_LOCK_DEADLOCK"), "{test}");
}

#[test]
fn mariadb_test_fails_a_result_the_run_does_not_give() {
    let case = scenario_file("hermitage/p4.sql");
    let server = Server::start(ServerKind::Mariadb, None, None).unwrap();
    let target = open_target(server.url(), None).unwrap();
    let history = observe(target.as_ref(), &case, Isolation::RepeatableRead);
    let test = export(&case, Some(&history), UpstreamFormat::Mysqltest).unwrap();
    let result = export(&case, Some(&history), UpstreamFormat::MysqltestResult).unwrap();
    let tampered = result.replacen("1\t10", "1\t11", 1);
    assert_ne!(tampered, result);
    let (passed, output) = mariadb_test(&server, &test, &tampered);
    assert!(!passed, "{output}");
}

// ---- SQLite: the sqllogictest crate ---------------------------------------------------------

/// A sqllogictest connection to a SQLite database file.
struct Sqlite(rusqlite::Connection);

impl sqllogictest::DB for Sqlite {
    type Error = rusqlite::Error;
    type ColumnType = sqllogictest::DefaultColumnType;

    fn run(&mut self, sql: &str) -> Result<sqllogictest::DBOutput<Self::ColumnType>, Self::Error> {
        use rusqlite::types::ValueRef;
        let mut stmt = self.0.prepare(sql)?;
        if stmt.column_count() == 0 {
            let count = stmt.execute([])?;
            return Ok(sqllogictest::DBOutput::StatementComplete(count as u64));
        }
        let width = stmt.column_count();
        let mut rows = Vec::new();
        let mut result = stmt.query([])?;
        while let Some(row) = result.next()? {
            let values = (0..width)
                .map(|c| {
                    Ok(match row.get_ref(c)? {
                        ValueRef::Null => "NULL".to_string(),
                        ValueRef::Integer(i) => i.to_string(),
                        ValueRef::Real(x) => x.to_string(),
                        ValueRef::Text(b"") => "(empty)".to_string(),
                        ValueRef::Text(t) | ValueRef::Blob(t) => {
                            String::from_utf8_lossy(t).into_owned()
                        }
                    })
                })
                .collect::<Result<Vec<String>, rusqlite::Error>>()?;
            rows.push(values);
        }
        Ok(sqllogictest::DBOutput::Rows {
            types: vec![sqllogictest::DefaultColumnType::Any; width],
            rows,
        })
    }
}

/// Runs `script` with the sqllogictest crate, each connection a SQLite connection to one
/// fresh database file.
fn run_sqllogictest(script: &str) -> Result<(), sqllogictest::TestError> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("finding.db");
    let mut runner = sqllogictest::Runner::new(|| {
        let path = path.clone();
        async move { rusqlite::Connection::open(path).map(Sqlite) }
    });
    runner.run_script(script)
}

/// `case` run by txhunt on SQLite at SERIALIZABLE and exported as a sqllogictest script.
fn sqllogictest_of(case: &TestCase) -> String {
    let sqlite = open_target("sqlite", None).unwrap();
    let history = observe(sqlite.as_ref(), case, Isolation::Serializable);
    export(case, Some(&history), UpstreamFormat::Sqllogictest).unwrap()
}

#[test]
fn a_sqllogictest_export_passes_on_sqlite_and_a_tampered_one_fails() {
    let script = sqllogictest_of(&scenario_file("hermitage/g1a.sql"));
    assert!(
        script.contains("connection t2\nquery II rowsort"),
        "{script}"
    );
    run_sqllogictest(&script).unwrap_or_else(|e| panic!("{e}\n{script}"));
    let tampered = script.replacen("2 20", "2 21", 1);
    assert_ne!(tampered, script);
    assert!(run_sqllogictest(&tampered).is_err());
}

#[test]
fn a_sqllogictest_export_of_a_wait_runs_in_completion_order() {
    let script = sqllogictest_of(&scenario_file("hermitage/g0.sql"));
    assert!(
        script.contains("# The statements are in the order they completed"),
        "{script}"
    );
    run_sqllogictest(&script).unwrap_or_else(|e| panic!("{e}\n{script}"));
}

// ---- the formats' text, for one small case ---------------------------------------------------

/// A lost update with its expectations, in every format, without a run (the scenario's own
/// expectations) and with one (SQLite's).
#[test]
fn every_format_writes_the_expected_text() {
    let case = scenario::parse(
        "-- id: small
         -- isolation: repeatable-read
         /* init */ CREATE TABLE t (k INT PRIMARY KEY, v INT);
         /* init */ INSERT INTO t VALUES (1, 10);
         /* t1 */ BEGIN;
         /* t1 */ UPDATE t SET v = v + 1 WHERE k = 1;  -- expect: affected 1
         /* t2 */ UPDATE t SET v = v + 2 WHERE k = 1;  -- expect: blocked then error deadlock
         /* t1 */ SELECT v FROM t WHERE k = 1;  -- expect: rows [(11)]
         /* t1 */ COMMIT;
        ",
        "small",
    )
    .unwrap();
    for format in UpstreamFormat::ALL {
        match export(&case, None, format) {
            Ok(text) => insta::assert_snapshot!(format!("expected-{format}"), text),
            Err(e) => insta::assert_snapshot!(format!("expected-{format}"), e.to_string()),
        }
    }
}

#[test]
fn formats_are_named_and_unknown_names_refused() {
    for format in UpstreamFormat::ALL {
        assert_eq!(format.name().parse::<UpstreamFormat>(), Ok(format));
    }
    assert_eq!(
        "tap".parse::<UpstreamFormat>().unwrap_err().to_string(),
        "unknown upstream format 'tap'; accepted: pg-isolation-spec, mysqltest, mysqltest-result, sqllogictest, scenario"
    );
}

#[test]
fn a_statement_that_never_completed_is_refused() {
    let case = scenario_file("hermitage/p4.sql");
    let sqlite = open_target("sqlite", None).unwrap();
    let mut history = observe(sqlite.as_ref(), &case, Isolation::Serializable);
    history.steps[5].outcome = Outcome::NeverCompleted;
    let err = export(&case, Some(&history), UpstreamFormat::Sqllogictest).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("step 5 (UPDATE test SET value = 11 WHERE id = 1) never completed"),
        "{err}"
    );
}
