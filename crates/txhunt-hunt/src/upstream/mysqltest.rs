//! MariaDB's and MySQL's `mysqltest` tests (`mariadb-test`, run by `mysql-test-run`): a `.test`
//! file and the `.result` its run must print (the `mysqltest` manual and the `.test` files
//! of MariaDB's `mysql-test/` describe them).
//!
//! - The setup runs on the `default` connection; each session then has a connection named by
//!   its label, `connect (t1,localhost,root,,)` (the empty database is the test's own, `test`
//!   under `mysql-test-run`, `--database` otherwise), which sets the level with `SET SESSION
//!   TRANSACTION ISOLATION LEVEL <level>`. At the end the connections are closed and the
//!   `default` connection drops the tables the setup created, last created first.
//! - Statements run in the order they were submitted, each after `connection <label>;`. A
//!   statement that waited is sent with `send`; the `default` connection then waits, with a
//!   bounded loop over `information_schema.innodb_trx`, until the session's transaction is in
//!   `LOCK WAIT` (so that nothing runs before it waits, as it did in the run), and it is
//!   collected with `reap` where it completed: after the statement that released it.
//! - An expected error is `--error NAME` or `--error NUMBER` before the statement (before the
//!   `reap` of a sent one): the observed error's number, or for a scenario's expected class
//!   the usual one (deadlock 1213, lock-timeout 1205, constraint 1062, serialization 1020).
//! - Warnings are not logged (`--disable_warnings`: the run records none to compare with), and
//!   a result of several rows is sorted (`--sorted_result`), so only its bag is compared.
//! - The `.result` echoes every statement (a sent one without `send`) and `connect`/`connection`/`disconnect` command,
//!   then a result's column names and rows (tab-separated, `NULL` for NULL) or the error as
//!   `ERROR <SQLSTATE>: <message>`. It needs the history (column names, messages), and the
//!   SQLSTATE of each error number it holds; without them, record it with
//!   `mariadb-test --record`.

use super::script::{Expected, Point, Script, Statement};
use super::{plain_text, UpstreamError, UpstreamFormat};
use std::fmt::Write;
use txhunt_model::{ErrorClass, SqlFamily};

/// The error numbers txhunt knows a name and SQLSTATE of: `(number, name, SQLSTATE)`.
const ERRORS: [(u32, &str, &str); 10] = [
    (1020, "ER_CHECKREAD", "HY000"),
    (1048, "ER_BAD_NULL_ERROR", "23000"),
    (1054, "ER_BAD_FIELD_ERROR", "42S22"),
    (1062, "ER_DUP_ENTRY", "23000"),
    (1064, "ER_PARSE_ERROR", "42000"),
    (1146, "ER_NO_SUCH_TABLE", "42S02"),
    (1205, "ER_LOCK_WAIT_TIMEOUT", "HY000"),
    (1213, "ER_LOCK_DEADLOCK", "40001"),
    (1451, "ER_ROW_IS_REFERENCED_2", "23000"),
    (1452, "ER_NO_REFERENCED_ROW_2", "23000"),
];

/// `script` as a `.test` file.
pub(super) fn test(script: &Script<'_>) -> Result<String, UpstreamError> {
    Ok(files(script)?.test)
}

/// The `.result` of [`test`]'s file on a run that reproduces `script`.
pub(super) fn result(script: &Script<'_>) -> Result<String, UpstreamError> {
    let files = files(script)?;
    files.result.map_err(|reason| UpstreamError::Inexpressible {
        format: UpstreamFormat::MysqltestResult,
        reason,
    })
}

/// The two files, written side by side: the `.result` or why it cannot be written.
struct Files {
    test: String,
    result: Result<String, String>,
}

impl Files {
    /// Adds `text` to the test and `echo` to the result.
    fn both(&mut self, text: &str, echo: &str) {
        self.test.push_str(text);
        if let Ok(result) = &mut self.result {
            result.push_str(echo);
        }
    }

    /// Adds a statement the result echoes as it is written.
    fn echoed(&mut self, line: &str) {
        self.both(line, line);
    }

    /// Makes `label` the current connection, if `current` is not.
    fn switch<'a>(&mut self, current: &mut &'a str, label: &'a str) {
        if *current != label {
            self.echoed(&format!("connection {label};\n"));
            *current = label;
        }
    }

    /// Adds `text` to the result only.
    fn result(&mut self, text: Result<String, String>) {
        self.result = match (std::mem::replace(&mut self.result, Ok(String::new())), text) {
            (Ok(mut result), Ok(text)) => {
                result.push_str(&text);
                Ok(result)
            }
            (Err(reason), _) | (Ok(_), Err(reason)) => Err(reason),
        };
    }
}

/// Writes both files of `script`.
fn files(script: &Script<'_>) -> Result<Files, UpstreamError> {
    let mut files = Files {
        test: String::new(),
        result: Ok(String::new()),
    };
    for line in &script.origin {
        files.test.push_str(&format!("# {line}\n"));
    }
    files.test.push_str("--disable_warnings\n");
    for sql in &script.init {
        files.echoed(&format!("{sql};\n"));
    }
    let waits: Vec<bool> = (0..script.sessions.len())
        .map(|session| (script.statements.iter()).any(|s| s.session == session && s.blocked))
        .collect();
    for (session, label) in script.sessions.iter().enumerate() {
        files.both(
            &format!("connect ({label},localhost,root,,);\n"),
            &format!("connect  {label},localhost,root,,;\n"),
        );
        if let Some(level) = script.isolation {
            files.echoed(&format!(
                "SET SESSION TRANSACTION ISOLATION LEVEL {};\n",
                level.sql()
            ));
        }
        if waits[session] {
            files
                .test
                .push_str(&format!("let ${label}_id= `SELECT CONNECTION_ID()`;\n"));
        }
    }
    let mut current = "default";
    for point in &script.points {
        let (Point::Submit(i) | Point::Complete(i)) = *point;
        let statement = &script.statements[i];
        let label = script.sessions[statement.session];
        files.switch(&mut current, label);
        match (*point, statement.blocked) {
            (Point::Submit(_), true) => {
                files.both(
                    &format!("send {};\n", statement.sql),
                    &format!("{};\n", statement.sql),
                );
                files.switch(&mut current, "default");
                files.test.push_str(&wait_for_lock(label));
            }
            (Point::Submit(_), false) => {
                files.test.push_str(&expect_error(statement)?);
                files.test.push_str(sorted(statement));
                files.echoed(&format!("{};\n", statement.sql));
                files.result(output(statement));
            }
            (Point::Complete(_), _) => {
                files.test.push_str(&expect_error(statement)?);
                files.test.push_str(sorted(statement));
                files.test.push_str("reap;\n");
                files.result(output(statement));
            }
        }
    }
    for label in &script.sessions {
        files.echoed(&format!("disconnect {label};\n"));
    }
    files.echoed("connection default;\n");
    for table in script.created_tables(SqlFamily::Mysql).iter().rev() {
        files.echoed(&format!("DROP TABLE {table};\n"));
    }
    Ok(files)
}

/// Waits, on the `default` connection, until `label`'s transaction waits on a lock; stops
/// the test if it does not within about 20 s. It asks every 0.2 s, not more often:
/// `information_schema.innodb_trx` is a copy InnoDB refreshes only when nobody has read it for
/// 0.1 s, so a loop asking every 10 ms from before the wait began kept seeing the copy from
/// before it, to the end (the mysqltest exports' flake of 2026-11-27, 3 runs in 4 when the
/// tests ran side by side).
fn wait_for_lock(label: &str) -> String {
    format!(
        "let $tries= 100;\n\
         while (`SELECT COUNT(*) = 0 FROM information_schema.innodb_trx WHERE trx_mysql_thread_id = ${label}_id AND trx_state = 'LOCK WAIT'`)\n\
         {{\n  dec $tries;\n  if (!$tries)\n  {{\n    --die {label}'s statement did not wait on a lock\n  }}\n  real_sleep 0.2;\n}}\n"
    )
}

/// `--sorted_result` before a statement that returns several rows, so that their order is not
/// compared; empty before any other.
fn sorted(statement: &Statement<'_>) -> &'static str {
    match statement.expected {
        Expected::Rows { rows, .. } if rows.len() > 1 => "--sorted_result\n",
        _ => "",
    }
}

/// The `--error` line before `statement`, if it must fail.
fn expect_error(statement: &Statement<'_>) -> Result<String, UpstreamError> {
    let Expected::Error { class, observed } = statement.expected else {
        return Ok(String::new());
    };
    let number = match (observed.and_then(|e| e.code.as_deref()), class) {
        (Some(code), _) => code.parse::<u32>().ok(),
        (None, Some(ErrorClass::Deadlock)) => Some(1213),
        (None, Some(ErrorClass::LockTimeout)) => Some(1205),
        (None, Some(ErrorClass::Constraint)) => Some(1062),
        (None, Some(ErrorClass::Serialization)) => Some(1020),
        (None, _) => None,
    };
    let Some(number) = number else {
        return Err(UpstreamError::Inexpressible {
            format: UpstreamFormat::Mysqltest,
            reason: format!(
                "`{}` must fail, but with no MariaDB error number for `--error` to name",
                statement.sql
            ),
        });
    };
    Ok(match ERRORS.iter().find(|(n, ..)| *n == number) {
        Some((_, name, _)) => format!("--error {name}\n"),
        None => format!("--error {number}\n"),
    })
}

/// What the result shows after `statement`: its rows, its error, or nothing.
fn output(statement: &Statement<'_>) -> Result<String, String> {
    match statement.expected {
        Expected::Ok | Expected::Affected(_) => Ok(String::new()),
        Expected::Rows { columns, rows } => {
            let columns = columns.ok_or_else(|| {
                format!(
                    "the column names of `{}` are known only from a run",
                    statement.sql
                )
            })?;
            let mut lines: Vec<String> = (rows.iter())
                .map(|row| {
                    let values: Vec<String> = (row.iter())
                        .map(|v| plain_text(v).unwrap_or_else(|| "NULL".into()))
                        .collect();
                    values.join("\t")
                })
                .collect();
            lines.sort();
            let mut text = columns.join("\t") + "\n";
            for line in lines {
                let _ = writeln!(text, "{line}");
            }
            Ok(text)
        }
        Expected::Error { observed, .. } => {
            let error = observed.ok_or_else(|| {
                format!(
                    "the error message of `{}` is known only from a run",
                    statement.sql
                )
            })?;
            let number: Option<u32> = error.code.as_deref().and_then(|c| c.parse().ok());
            let state = (ERRORS.iter())
                .find(|(n, ..)| Some(*n) == number)
                .map(|(.., state)| *state)
                .ok_or_else(|| {
                    format!(
                        "txhunt does not know the SQLSTATE of error {}",
                        error.code.as_deref().unwrap_or("without a number")
                    )
                })?;
            Ok(format!("ERROR {state}: {}\n", error.message))
        }
    }
}
