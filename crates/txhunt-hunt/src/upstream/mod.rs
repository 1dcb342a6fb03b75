//! Exporting a finding's scenario to the test formats DBMS developers run, so that a report
//! comes with a test the project's own tool can run:
//!
//! - [`UpstreamFormat::PgIsolationSpec`]: a PostgreSQL isolation test (`.spec`) for
//!   `isolationtester`, which reports which steps waited;
//! - [`UpstreamFormat::Mysqltest`] and [`UpstreamFormat::MysqltestResult`]: a MariaDB/MySQL
//!   `mysqltest` (`mariadb-test`) test and its expected `.result`;
//! - [`UpstreamFormat::Sqllogictest`]: a sqllogictest script with one connection per session;
//! - [`UpstreamFormat::Scenario`]: txhunt's own scenario text.
//!
//! **Outcomes.** With an observed [`History`], every statement is expected to do what it did
//! there: its rows, its affected-row count or its error, and whether it waited on a lock. The
//! order is the one it ran in: a statement is submitted where the history submitted it, a
//! statement that waited completes where it resumed, and a ROLLBACK txhunt sent to end a
//! transaction the DBMS aborted but left open is a statement of its session. A statement that
//! was not run is left out. Without a history, the scenario's own expectations are used (a
//! statement without one is expected to succeed) in the scenario's order, and a statement
//! expected to block completes just before its session's next statement.
//!
//! **Isolation.** Every session runs at the history's level, or else at the scenario's level
//! when its header names exactly one; otherwise at the DBMS's default.
//!
//! **Refusals** ([`UpstreamError`]): a statement that never completed (a hang, or one still
//! waiting at the end) has no test a runner could finish; each format names what else it
//! cannot express.

mod mysqltest;
mod pg_isolation;
mod script;
mod sqllogictest;

use std::fmt;
use std::str::FromStr;
use txhunt_model::{History, TestCase, Value};

/// A test format of a DBMS project (or txhunt's own) a scenario can be exported to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UpstreamFormat {
    /// PostgreSQL's isolation test specification, run by `isolationtester`.
    PgIsolationSpec,
    /// A `mysqltest` test file (MariaDB's `mariadb-test`, MySQL's `mysqltest`).
    Mysqltest,
    /// The `.result` file `mysqltest` compares the test's output with (needs a history).
    MysqltestResult,
    /// A sqllogictest script, with `connection` records for the sessions (sqllogictest-rs).
    Sqllogictest,
    /// txhunt's own scenario text ([`txhunt_model::scenario::print`]).
    Scenario,
}

impl UpstreamFormat {
    /// Every format, in the order their names are listed.
    pub const ALL: [UpstreamFormat; 5] = [
        UpstreamFormat::PgIsolationSpec,
        UpstreamFormat::Mysqltest,
        UpstreamFormat::MysqltestResult,
        UpstreamFormat::Sqllogictest,
        UpstreamFormat::Scenario,
    ];

    /// The format's name, as [`FromStr`] accepts it.
    pub fn name(self) -> &'static str {
        match self {
            UpstreamFormat::PgIsolationSpec => "pg-isolation-spec",
            UpstreamFormat::Mysqltest => "mysqltest",
            UpstreamFormat::MysqltestResult => "mysqltest-result",
            UpstreamFormat::Sqllogictest => "sqllogictest",
            UpstreamFormat::Scenario => "scenario",
        }
    }

    /// The file-name ending its tool expects: `spec` (in `specs/`), `test` (in `t/`),
    /// `result` (in `r/`, with the test's name), `slt`, `sql`.
    pub fn extension(self) -> &'static str {
        match self {
            UpstreamFormat::PgIsolationSpec => "spec",
            UpstreamFormat::Mysqltest => "test",
            UpstreamFormat::MysqltestResult => "result",
            UpstreamFormat::Sqllogictest => "slt",
            UpstreamFormat::Scenario => "sql",
        }
    }
}

impl fmt::Display for UpstreamFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for UpstreamFormat {
    type Err = UnknownUpstreamFormat;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        UpstreamFormat::ALL
            .into_iter()
            .find(|format| format.name() == name)
            .ok_or_else(|| UnknownUpstreamFormat(name.to_string()))
    }
}

/// A format name that is not one of [`UpstreamFormat::ALL`]'s.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown upstream format '{0}'; accepted: {accepted}", accepted = UpstreamFormat::ALL.map(UpstreamFormat::name).join(", "))]
pub struct UnknownUpstreamFormat(pub String);

/// Why a scenario cannot be exported in a format.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UpstreamError {
    /// The history is not an execution of the case.
    #[error("the observed history has {history} steps, the case {case}: it is not this case's")]
    NotThisCase {
        /// The case's steps.
        case: usize,
        /// The history's step records.
        history: usize,
    },
    /// A statement never completed, so no runner could finish the test.
    #[error(
        "step {step} ({sql}) never completed ({outcome}): a test runner would wait for it forever"
    )]
    Unfinished {
        /// Its index among the case's steps.
        step: usize,
        /// Its SQL.
        sql: String,
        /// How it ended.
        outcome: String,
    },
    /// The format cannot say what the case needs.
    #[error("{format}: {reason}")]
    Inexpressible {
        /// The format.
        format: UpstreamFormat,
        /// What it cannot say.
        reason: String,
    },
}

/// `case` as a test in `format`, expecting the outcomes `observed` records when given (see the
/// module documentation).
pub fn export(
    case: &TestCase,
    observed: Option<&History>,
    format: UpstreamFormat,
) -> Result<String, UpstreamError> {
    let script = || script::Script::build(case, observed);
    match format {
        UpstreamFormat::PgIsolationSpec => pg_isolation::spec(&script()?),
        UpstreamFormat::Mysqltest => mysqltest::test(&script()?),
        UpstreamFormat::MysqltestResult => mysqltest::result(&script()?),
        UpstreamFormat::Sqllogictest => sqllogictest::script(&script()?),
        UpstreamFormat::Scenario => Ok(txhunt_model::scenario::print(case)),
    }
}

/// A non-NULL value as text-protocol clients print it: numbers in decimal, strings as they
/// are, booleans as `1` and `0`, bytes as (lossy) UTF-8; `None` for NULL.
fn plain_text(value: &Value) -> Option<String> {
    Some(match value {
        Value::Null => return None,
        Value::Bool(b) => u8::from(*b).to_string(),
        Value::Int(i) => i.to_string(),
        Value::Decimal(d) => d.clone(),
        Value::Float(x) => format!("{x}"),
        Value::Text(s) => s.clone(),
        Value::Bytes(b) => String::from_utf8_lossy(b).into_owned(),
    })
}
