//! The explicit-error oracle (APTrans §3.5.1): what the DBMS says about itself. A lost
//! connection (the server crashed or killed the session), an internal error (assertion,
//! corruption) and a hang (a statement that neither ends nor waits on a lock) are findings
//! whatever the isolation level.

use crate::{Finding, Judged, OracleId, Signature};
use txhunt_model::{ErrorClass, History, Outcome, TestCase};

/// The explicit-error oracle.
#[derive(Debug, Default, Clone, Copy)]
pub struct Explicit;

impl crate::Oracle for Explicit {
    fn id(&self) -> OracleId {
        OracleId::Explicit
    }

    fn check(
        &self,
        case: &TestCase,
        history: &History,
        _runner: &dyn txhunt_exec::Runner,
    ) -> Judged {
        Judged {
            findings: check(case, history),
            unjudged: Vec::new(),
        }
    }
}

/// Every explicit error of `history`, one finding per kind of failure (the first statement
/// that showed it, and every statement that did).
pub fn check(case: &TestCase, history: &History) -> Vec<Finding> {
    let mut findings: Vec<Finding> = Vec::new();
    for (i, record) in history.steps.iter().enumerate() {
        let (signature, what) = match &record.outcome {
            Outcome::Error(e) if e.class == ErrorClass::Internal => (
                Signature::Internal {
                    code: e.code.as_deref().unwrap_or("?").to_string(),
                },
                format!("internal error: {}", e.message),
            ),
            Outcome::Error(e) if e.class == ErrorClass::Connection => (
                Signature::Connection,
                format!("connection lost: {}", e.message),
            ),
            Outcome::Hang {
                after_ms,
                lock_cycle: false,
            } => (
                Signature::Hang,
                format!("hang: no end and no lock wait in {after_ms} ms"),
            ),
            Outcome::Hang {
                after_ms,
                lock_cycle: true,
            } => (
                Signature::Hang,
                format!(
                    "hang: an undetected deadlock, the statements waited on each other's locks for {after_ms} ms with no deadlock error"
                ),
            ),
            _ => continue,
        };
        match findings.iter_mut().find(|f| f.signature == signature) {
            Some(f) => f.steps.push(i),
            None => findings.push(Finding::new(
                signature,
                format!("{what} (at `{}`)", case.steps[i].stmt.sql),
                vec![i],
            )),
        }
    }
    findings
}

#[cfg(test)]
mod tests {
    use super::*;
    use txhunt_model::{scenario, DbError, Isolation, StepRecord};

    fn record(outcome: Outcome) -> StepRecord {
        StepRecord {
            submitted: Some(0),
            completed: Some(0),
            blocked: false,
            outcome,
            resumed_together: None,
            accesses: None,
        }
    }

    /// A history of the steps that ended as `outcomes`.
    fn history(outcomes: Vec<Outcome>) -> History {
        History {
            target: "t".into(),
            isolation: Isolation::Serializable,
            init: vec![],
            init_writes: Vec::new(),
            steps: outcomes.into_iter().map(record).collect(),
            schedule: vec![],
            txns: vec![],
            final_state: None,
            final_state_error: None,
            tables: Vec::new(),
        }
    }

    #[test]
    fn fires_on_internal_errors_lost_connections_and_hangs_only() {
        let case = scenario::parse(
            "/* t1 */ SELECT 1;\n/* t2 */ SELECT 2;\n/* t1 */ SELECT 3;\n/* t3 */ SELECT 4;\n/* t3 */ SELECT 5;\n",
            "x.sql",
        )
        .unwrap();
        let error = |class, code: &str| {
            Outcome::Error(DbError {
                class,
                code: Some(code.into()),
                message: "m".into(),
            })
        };
        let history = history(vec![
            error(ErrorClass::Deadlock, "1213"),
            error(ErrorClass::Internal, "1815"),
            Outcome::Hang {
                after_ms: 10,
                lock_cycle: false,
            },
            error(ErrorClass::Internal, "1815"),
            error(ErrorClass::Constraint, "1062"),
        ]);
        let findings = check(&case, &history);
        let signatures: Vec<(String, Vec<usize>)> = findings
            .iter()
            .map(|f| (f.signature.to_string(), f.steps.clone()))
            .collect();
        assert_eq!(
            signatures,
            [
                ("internal:1815".into(), vec![1, 3]),
                ("hang".into(), vec![2])
            ]
        );
        assert!(findings[0].summary.contains("SELECT 2"));
        assert!(findings[1].summary.contains("no lock wait"));
    }

    #[test]
    fn a_hang_in_a_lock_wait_cycle_is_named_an_undetected_deadlock() {
        let case = scenario::parse("/* t1 */ SELECT 1;\n", "x.sql").unwrap();
        let mut history = history(vec![Outcome::Hang {
            after_ms: 10,
            lock_cycle: true,
        }]);
        let findings = check(&case, &history);
        assert_eq!(findings.len(), 1);
        assert!(findings[0].summary.contains("undetected deadlock"));
        history.steps[0].outcome = Outcome::Ok;
        assert!(check(&case, &history).is_empty());
    }
}
