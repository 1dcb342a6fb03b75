//! Test cases: an initial database, transactions, and the order their statements are submitted in.

use crate::expect::{Expect, TableExpect};
use crate::isolation::{Isolation, Mode};
use crate::kind::StmtKind;
use serde::{Deserialize, Serialize};

/// A test case: setup SQL, the statements of every session in their submitted order, and the
/// expectations a scenario states about them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestCase {
    /// Metadata from the header lines.
    pub header: Header,
    /// Setup statements, run one after another in one session before any transaction starts.
    pub init: Vec<Stmt>,
    /// The transaction statements in submitted order, each with the session that runs it.
    pub steps: Vec<Step>,
    /// Expected final contents of tables.
    pub final_expect: Vec<TableExpect>,
}

/// Header metadata (`-- key: value` lines before the first statement).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// Short identifier, e.g. an upstream bug id.
    pub id: Option<String>,
    /// One-line title.
    pub title: Option<String>,
    /// Where the case comes from (bug tracker link).
    pub link: Option<String>,
    /// The isolation levels the case is meant for; empty means the target's default.
    pub isolation: Vec<Isolation>,
    /// The DBMS (and version) the case was written for or reported against.
    pub dbms: Option<String>,
    /// The concurrency-control mode, for engines that have several.
    pub mode: Option<Mode>,
    /// Any other `key: value` pairs, in file order (e.g. `seed`, `description`).
    pub extra: Vec<(String, String)>,
    /// Whether the statements a transaction has left after an error aborted it are skipped
    /// (recorded as not run) instead of submitted in autocommit, as DT² does and txhunt does
    /// by default. Set by oracles for serial schedules that replay a transaction only to roll
    /// it back; scenario files do not carry it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub skip_after_abort: bool,
}

/// One statement, with what the scenario expects of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stmt {
    /// The SQL text, without the terminating `;`.
    pub sql: String,
    /// The expected outcome, if stated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<Expect>,
    /// A free trailing comment (`-- text` that is not an expectation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The line of the scenario file the statement starts on, when parsed from one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
}

impl Stmt {
    /// A statement with no expectation, note or line.
    pub fn new(sql: impl Into<String>) -> Self {
        Stmt {
            sql: sql.into(),
            expect: None,
            note: None,
            line: None,
        }
    }

    /// What kind of statement this is.
    pub fn kind(&self) -> StmtKind {
        StmtKind::of(&self.sql)
    }
}

/// One entry of the submitted order: a statement and the session (client connection) it runs on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// The session's label as written: `t1`, `t2`, … or `conn_0`, `conn_1`, ….
    pub session: String,
    /// The statement.
    pub stmt: Stmt,
}

/// A transaction: an explicit `BEGIN … COMMIT/ROLLBACK` block of one session, or a single
/// statement run in autocommit mode.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Txn {
    /// Index in [`TestCase::txns`].
    pub id: usize,
    /// The session that runs it.
    pub session: String,
    /// Whether it is explicit (starts with BEGIN/START TRANSACTION).
    pub explicit: bool,
    /// Its statements, as indices into [`TestCase::steps`], in order.
    pub steps: Vec<usize>,
    /// A label for reports: the session, followed by `#k` when the session runs several.
    pub label: String,
}

impl TestCase {
    /// The session labels, in order of first appearance.
    pub fn sessions(&self) -> Vec<&str> {
        let mut seen: Vec<&str> = Vec::new();
        for step in &self.steps {
            if !seen.contains(&step.session.as_str()) {
                seen.push(&step.session);
            }
        }
        seen
    }

    /// The transactions, in order of their first statement.
    ///
    /// Within one session, a BEGIN/START TRANSACTION opens an explicit transaction that the next
    /// COMMIT or ROLLBACK closes; every statement outside such a block is its own autocommit
    /// transaction. A block that is never closed ends with the case.
    pub fn txns(&self) -> Vec<Txn> {
        let mut txns: Vec<Txn> = Vec::new();
        let mut open: Vec<(String, usize)> = Vec::new();
        for (i, step) in self.steps.iter().enumerate() {
            let kind = step.stmt.kind();
            let open_at = open.iter().position(|(s, _)| *s == step.session);
            match open_at {
                Some(pos) => {
                    let id = open[pos].1;
                    txns[id].steps.push(i);
                    if kind.ends_txn() {
                        open.remove(pos);
                    }
                }
                None => {
                    let explicit = kind == StmtKind::Begin;
                    txns.push(Txn {
                        id: txns.len(),
                        session: step.session.clone(),
                        explicit,
                        steps: vec![i],
                        label: String::new(),
                    });
                    if explicit {
                        open.push((step.session.clone(), txns.len() - 1));
                    }
                }
            }
        }
        // A session's transactions are numbered `t1#1`, `t1#2`, … when it has several.
        let mut total: std::collections::HashMap<String, usize> = Default::default();
        for t in &txns {
            *total.entry(t.session.clone()).or_default() += 1;
        }
        let mut seen: std::collections::HashMap<String, usize> = Default::default();
        for t in &mut txns {
            let k = seen.entry(t.session.clone()).or_default();
            *k += 1;
            t.label = if total[&t.session] == 1 {
                t.session.clone()
            } else {
                format!("{}#{k}", t.session)
            };
        }
        txns
    }

    /// For every step, the index of its transaction in [`TestCase::txns`].
    pub fn txn_of_steps(&self, txns: &[Txn]) -> Vec<usize> {
        let mut of = vec![0; self.steps.len()];
        for txn in txns {
            for &s in &txn.steps {
                of[s] = txn.id;
            }
        }
        of
    }

    /// Every statement with an expectation or a line, init first: for reports.
    pub fn statements(&self) -> impl Iterator<Item = &Stmt> {
        self.init
            .iter()
            .chain(self.steps.iter().map(|step| &step.stmt))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(session: &str, sql: &str) -> Step {
        Step {
            session: session.into(),
            stmt: Stmt::new(sql),
        }
    }

    #[test]
    fn splits_sessions_into_transactions() {
        let case = TestCase {
            steps: vec![
                step("t1", "BEGIN"),
                step("t2", "UPDATE t SET a = 1"),
                step("t1", "SELECT 1"),
                step("t2", "DELETE FROM t"),
                step("t1", "COMMIT"),
                step("t1", "INSERT INTO t VALUES (1)"),
            ],
            ..TestCase::default()
        };
        let txns = case.txns();
        let shape: Vec<(&str, bool, Vec<usize>)> = txns
            .iter()
            .map(|t| (t.label.as_str(), t.explicit, t.steps.clone()))
            .collect();
        assert_eq!(
            shape,
            vec![
                ("t1#1", true, vec![0, 2, 4]),
                ("t2#1", false, vec![1]),
                ("t2#2", false, vec![3]),
                ("t1#2", false, vec![5]),
            ]
        );
        assert_eq!(case.txn_of_steps(&txns), vec![0, 1, 0, 2, 0, 3]);
        assert_eq!(case.sessions(), vec!["t1", "t2"]);
    }
}
