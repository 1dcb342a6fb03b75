//! The sequential execution (paper 002 §3.3, Algorithm 1): a run's statements in a
//! topological order of its statement dependency graph, each on its own in autocommit mode on
//! one session, from a fresh copy of the initial database; and how its results compare with
//! the run's.

use super::graph::observed;
use crate::same_rows;
use std::collections::HashSet;
use txhunt_model::access::{RowId, Version, WriteKind};
use txhunt_model::{History, Outcome, Step, StepRecord, TestCase};
use txhunt_sql::instrument::ROWS_PER_STATEMENT;

/// A sequential case and, for each of its steps, the step of the run it re-runs.
#[derive(Debug, Clone)]
pub struct Sequential {
    /// The case: the run's setup, then the statements in order on session `t1`.
    pub case: TestCase,
    /// Per step of `case`, the run's step.
    pub origin: Vec<usize>,
}

impl Sequential {
    /// The statements `order` names (steps of `case`), one after another.
    pub fn of(case: &TestCase, order: &[usize]) -> Sequential {
        let mut sequential = TestCase {
            init: case.init.clone(),
            ..TestCase::default()
        };
        sequential.header.isolation = case.header.isolation.clone();
        sequential.header.mode = case.header.mode;
        sequential.header.title = Some("sequential order of the statement dependency graph".into());
        for &s in order {
            let mut stmt = case.steps[s].stmt.clone();
            stmt.expect = None;
            sequential.steps.push(Step {
                session: "t1".into(),
                stmt,
            });
        }
        Sequential {
            case: sequential,
            origin: order.to_vec(),
        }
    }

    /// `version` of the sequential run as the run's version: a statement's version is the
    /// version of the run's statement it re-runs.
    pub fn version(&self, version: Version) -> Version {
        match version {
            Version::Step(i) => Version::Step(self.origin[i]),
            init => init,
        }
    }

    /// `row` of the sequential run as the run's row: a row inserted by the `j`-th row of a
    /// statement is the row the run's statement inserted as its `j`-th.
    pub fn row(&self, row: &RowId) -> RowId {
        let (v, j) = (
            row.rid.div_euclid(ROWS_PER_STATEMENT),
            row.rid.rem_euclid(ROWS_PER_STATEMENT),
        );
        let rid = match Version::from_column(v) {
            Some(Version::Step(i)) if i < self.origin.len() => {
                Version::Step(self.origin[i]).to_column() * ROWS_PER_STATEMENT + j
            }
            _ => row.rid,
        };
        RowId {
            table: row.table.clone(),
            rid,
        }
    }

    /// The statements whose outcome in `sequential` (a run of this case) differs from the
    /// run's (`history`), or whose writes were of other kinds (an upsert answers "affected 1"
    /// whether it inserted a row or updated one, and which it did tells which versions it
    /// depended on): `(run step, sequential step)`.
    pub fn differing(&self, history: &History, sequential: &History) -> Vec<(usize, usize)> {
        (self.origin.iter().enumerate())
            .filter(|(i, &s)| {
                let (ran, ours) = (&history.steps[s], &sequential.steps[*i]);
                !same_result(&ran.outcome, &ours.outcome)
                    || write_kinds(ran).is_some_and(|k| write_kinds(ours).is_some_and(|o| o != k))
            })
            .map(|(i, &s)| (s, i))
            .collect()
    }

    /// The row versions sequential step `i` observed that its run's statement did not observe
    /// (rows it did not return, match or overwrite, and versions of rows it observed at
    /// another version: a statement the graph leaves free to go before it wrote them in the
    /// sequential order, though in the run it did not, e.g. two statements that resumed
    /// together), as the run's rows and versions; `None` when it observed a row at its setup
    /// version where the run's statement saw another (the graph orders it after that one's
    /// installer).
    pub fn unseen(
        &self,
        history: &History,
        sequential: &History,
        i: usize,
    ) -> Option<Vec<(RowId, Version)>> {
        let ran: HashSet<(RowId, Version)> = observed(&history.steps[self.origin[i]])
            .into_iter()
            .collect();
        let ran_rows: HashSet<&RowId> = ran.iter().map(|(r, _)| r).collect();
        let mut extra = Vec::new();
        for (row, version) in observed(&sequential.steps[i]) {
            let (row, version) = (self.row(&row), self.version(version));
            if ran.contains(&(row.clone(), version)) {
                continue;
            }
            if ran_rows.contains(&row) && matches!(version, Version::Init(_)) {
                return None;
            }
            extra.push((row, version));
        }
        extra.sort();
        extra.dedup();
        Some(extra)
    }
}

/// Whether two outcomes of one statement agree: the same rows as bags, the same affected-row
/// count, both succeeded without either, or the same error.
pub(crate) fn same_result(a: &Outcome, b: &Outcome) -> bool {
    match (a, b) {
        (Outcome::Rows { .. }, _) | (_, Outcome::Rows { .. }) => same_rows(a, b),
        (Outcome::Error(x), Outcome::Error(y)) => x.code == y.code,
        _ => a == b,
    }
}

/// The kinds of the writes a step recorded, sorted; `None` where it recorded none.
fn write_kinds(step: &StepRecord) -> Option<Vec<WriteKind>> {
    let mut kinds: Vec<WriteKind> = step
        .accesses
        .as_ref()?
        .writes
        .iter()
        .map(|w| w.kind)
        .collect();
    kinds.sort();
    Some(kinds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_and_versions_map_back_to_the_statements_they_re_run() {
        let case = TestCase {
            steps: (0..4)
                .map(|i| Step {
                    session: "t1".into(),
                    stmt: txhunt_model::Stmt::new(format!("SELECT {i}")),
                })
                .collect(),
            ..TestCase::default()
        };
        let seq = Sequential::of(&case, &[3, 0, 2]);
        assert_eq!(seq.case.steps[0].stmt.sql, "SELECT 3");
        assert_eq!(seq.version(Version::Step(1)), Version::Step(0));
        assert_eq!(seq.version(Version::Init(1)), Version::Init(1));
        let row = |v: Version, j: i64| RowId {
            table: "t".into(),
            rid: v.to_column() * ROWS_PER_STATEMENT + j,
        };
        assert_eq!(seq.row(&row(Version::Step(0), 2)), row(Version::Step(3), 2));
        assert_eq!(seq.row(&row(Version::Init(0), 5)), row(Version::Init(0), 5));
    }
}
