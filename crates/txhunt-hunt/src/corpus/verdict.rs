//! What one known-bug scenario at one isolation level says about a target: the bug
//! `reproduces`, is `fixed`, shows `no-anomaly` (a PoC without written expectations in whose
//! run the DSG oracle found no phenomenon the level forbids), does not apply (`n/a`, with the
//! reason) or could not be run (`error`).
//!
//! Expectations are checked first; an Adya phenomenon the level forbids makes a PoC
//! `reproduce` too, with or without expectations, and so does what the DBMS shows of itself
//! whatever the level: an internal error or a hang (a deadlock left undetected, say). A lost
//! connection does not: it may be the machine's, not the DBMS's.

use serde::Serialize;
use txhunt_db::Profile;
use txhunt_model::{check, ErrorClass, History, Isolation, Outcome, TestCase};
use txhunt_oracle::{explicit, Finding, OracleId, Signature};

/// The verdict of one scenario at one level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// An expectation of the correct behaviour failed: the bug is present.
    Reproduces,
    /// Every expectation held: the correct behaviour.
    Fixed,
    /// No expectation was written, and the DSG oracle found no phenomenon the level forbids.
    NoAnomaly,
    /// The scenario does not apply (another DBMS, a level it is not written for, a dialect
    /// or feature the target lacks, no stated expectation).
    #[serde(rename = "n/a")]
    NotApplicable,
    /// txhunt could not run it (the target failed).
    Error,
}

impl Verdict {
    /// The verdict as the table and JUnit name it.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Reproduces => "reproduces",
            Verdict::Fixed => "fixed",
            Verdict::NoAnomaly => "no-anomaly",
            Verdict::NotApplicable => "n/a",
            Verdict::Error => "error",
        }
    }
}

/// One cell of the corpus table: a scenario at a level, its verdict and why.
#[derive(Debug, Clone, Serialize)]
pub struct Cell {
    /// The scenario's id.
    pub id: String,
    /// Its file.
    pub file: String,
    /// The DBMS (and version) the bug was reported on.
    pub dbms: String,
    /// The level.
    pub level: Isolation,
    /// The verdict.
    pub verdict: Verdict,
    /// Why: the failed expectations, the reason it does not apply, or the error.
    pub reason: String,
}

/// Why `case` does not apply to a target with profile `profile` at `level`, if it does not:
/// a PoC applies to the DBMSs its bug is reported as ([`Profile::reported_as`]), at the levels
/// its header names (`all_levels`: at every level), when it states an expectation or an oracle
/// judges it anyway (`judged`: the DSG oracle).
pub fn not_applicable(
    case: &TestCase,
    profile: &dyn Profile,
    level: Isolation,
    (all_levels, judged): (bool, bool),
) -> Option<String> {
    let dbms = case.header.dbms.clone().unwrap_or_default();
    let first = dbms
        .split(|c: char| !c.is_ascii_alphanumeric())
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    if !profile.reported_as().contains(&first.as_str()) {
        return Some(format!("a PoC for {dbms}, not for {}", profile.name()));
    }
    let written_for = &case.header.isolation;
    if !all_levels && !written_for.is_empty() && !written_for.contains(&level) {
        let names: Vec<&str> = written_for.iter().map(|l| l.name()).collect();
        return Some(format!(
            "its expectations are written for {}",
            names.join(", ")
        ));
    }
    let stated =
        case.steps.iter().any(|s| s.stmt.expect.is_some()) || !case.final_expect.is_empty();
    if !stated && !judged {
        return Some("no expectation states the correct behaviour".into());
    }
    None
}

/// The verdict of `history`, a run of `case` whose oracles found `findings`: `n/a` when the
/// setup failed or a statement without an expectation was rejected as unsupported (the
/// dialect lacks it), else `reproduces` with the failed expectations, the DSG's forbidden
/// phenomena and the explicit oracle's internal errors and hangs, else `fixed` (expectations
/// held) or `no-anomaly` (none written).
pub fn judge(case: &TestCase, history: &History, findings: &[Finding]) -> (Verdict, String) {
    if let Some((stmt, outcome)) = case
        .init
        .iter()
        .zip(&history.init)
        .find(|(_, o)| matches!(o, Outcome::Error(_)))
    {
        return (
            Verdict::NotApplicable,
            format!("setup failed: `{}`: {outcome}", stmt.sql),
        );
    }
    // A rejected statement the PoC states nothing about is a dialect gap; one it states an
    // outcome for is judged by that expectation (the bug may be the rejection).
    let rejected = case.steps.iter().zip(&history.steps).find(|(step, r)| {
        step.stmt.expect.is_none()
            && r.outcome
                .error()
                .is_some_and(|e| e.class == ErrorClass::Syntax)
    });
    if let Some((step, record)) = rejected {
        return (
            Verdict::NotApplicable,
            format!("unsupported: `{}`: {}", step.stmt.sql, record.outcome),
        );
    }
    let checks = check(case, history);
    let failed: Vec<String> = (checks.iter())
        .filter(|c| !c.passed)
        .map(|c| {
            let at = c.line.map(|l| format!("line {l}: ")).unwrap_or_default();
            format!(
                "{at}{}: expected {}, observed {}",
                c.subject, c.expected, c.observed
            )
        })
        .chain(
            (findings.iter())
                .filter(|f| f.oracle == OracleId::Dsg && f.is_candidate())
                .map(|f| format!("dsg: {}", f.summary)),
        )
        .chain(
            (explicit::check(case, history).into_iter())
                .filter(|f| f.signature != Signature::Connection)
                .map(|f| format!("explicit: {}", f.summary)),
        )
        .collect();
    match (failed.is_empty(), checks.is_empty()) {
        (false, _) => (Verdict::Reproduces, failed.join("; ")),
        (true, false) => (Verdict::Fixed, "every expectation held".into()),
        (true, true) => (
            Verdict::NoAnomaly,
            "no expectation written; the DSG oracle found no phenomenon the level forbids".into(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use txhunt_model::scenario;

    /// The verdict of `text` run on in-process SQLite at SERIALIZABLE.
    fn judged(text: &str) -> (Verdict, String) {
        let case = scenario::parse(text, "x.sql").unwrap();
        let sqlite = txhunt_db::open_target("sqlite", None).unwrap();
        let history = txhunt_exec::Executor::default()
            .execute(sqlite.as_ref(), &case, Isolation::Serializable)
            .unwrap();
        judge(&case, &history, &[])
    }

    #[test]
    fn a_failed_expectation_reproduces_a_rejected_statement_is_not_applicable() {
        let setup =
            "/* init */ CREATE TABLE t(k INT PRIMARY KEY);\n/* init */ INSERT INTO t VALUES (1);\n";
        let (verdict, reason) = judged(&format!(
            "{setup}/* t1 */ SELECT k FROM t;  -- expect: rows [(2)]\n"
        ));
        assert_eq!(verdict, Verdict::Reproduces);
        assert!(
            reason == "line 3: t1: SELECT k FROM t: expected rows [(2)], observed rows [(1)]",
            "{reason}"
        );
        let fixed = judged(&format!(
            "{setup}/* t1 */ SELECT k FROM t;  -- expect: rows [(1)]\n"
        ));
        assert_eq!(fixed.0, Verdict::Fixed);
        let (verdict, reason) = judged(&format!(
            "{setup}/* t1 */ SELECT k FROM t LOCK IN SHARE MODE;\n/* t1 */ SELECT k FROM t;  -- expect: rows [(1)]\n"
        ));
        assert_eq!(verdict, Verdict::NotApplicable);
        assert!(
            reason.starts_with("unsupported: `SELECT k FROM t LOCK IN SHARE MODE`"),
            "{reason}"
        );
    }

    #[test]
    fn a_hang_reproduces_whatever_the_expectations_say() {
        let case = scenario::parse("/* t1 */ SELECT 1;  -- expect: blocked\n", "x.sql").unwrap();
        let sqlite = txhunt_db::open_target("sqlite", None).unwrap();
        let mut history = txhunt_exec::Executor::default()
            .execute(sqlite.as_ref(), &case, Isolation::Serializable)
            .unwrap();
        history.steps[0].outcome = Outcome::Hang {
            after_ms: 10,
            lock_cycle: true,
        };
        let (verdict, reason) = judge(&case, &history, &[]);
        assert_eq!(verdict, Verdict::Reproduces);
        assert!(
            reason.contains("explicit: hang: an undetected deadlock"),
            "{reason}"
        );
    }

    #[test]
    fn a_poc_applies_to_its_family_at_its_levels_when_it_states_an_expectation() {
        let case = scenario::parse(
            "-- id: x\n-- dbms: MySQL 8.0.27\n-- isolation: repeatable-read\n\
             /* t1 */ SELECT 1;  -- expect: rows [(1)]\n",
            "x.sql",
        )
        .unwrap();
        let rr = Isolation::RepeatableRead;
        let mariadb = &txhunt_db::profile::innodb::MARIADB;
        let postgres = &txhunt_db::profile::postgres::PostgresProfile;
        assert_eq!(not_applicable(&case, mariadb, rr, (false, false)), None);
        assert_eq!(
            not_applicable(&case, postgres, rr, (false, false)).as_deref(),
            Some("a PoC for MySQL 8.0.27, not for postgres")
        );
        let rc = Isolation::ReadCommitted;
        assert_eq!(
            not_applicable(&case, mariadb, rc, (false, false)).as_deref(),
            Some("its expectations are written for repeatable-read")
        );
        assert_eq!(not_applicable(&case, mariadb, rc, (true, false)), None);
        let silent = scenario::parse("-- dbms: MariaDB\n/* t1 */ SELECT 1;\n", "y.sql").unwrap();
        assert_eq!(
            not_applicable(&silent, mariadb, rr, (false, false)).as_deref(),
            Some("no expectation states the correct behaviour")
        );
    }
}
