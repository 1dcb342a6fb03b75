//! Deciding whether a documented behaviour explains a WSS violation ([`crate::permit`]), by
//! re-executing discriminating variants of the case on the same target; never by looking at
//! the SQL text.
//!
//! The profile lists the behaviours of the history's level in the order they are tried; the
//! first whose evidence all holds explains the violation. Each piece of evidence is decided
//! at most once per violation (the same-case-at-REPEATABLE-READ run serves both InnoDB
//! behaviours below it).
//!
//! A variant counts as *write-serializable* when WSS finds no violation in it, or, at a level
//! where the DBMS promises only some serial order (SSI, snapshot isolation), when some serial
//! order of its committed transactions reproduces its final state and writes. The same case
//! at a stronger level that violates WSS too still shows the weaker level's behaviour when it
//! ends in the run's final state and a behaviour documented at the stronger level explains it
//! there (a write skew at PostgreSQL's REPEATABLE READ, for a READ COMMITTED run): the run's
//! final state is then one the stronger level allows, and the weaker level allows all it does.

use super::committed_replay::{committed_replay, writes_on_committed_versions};
use super::compare::compare;
use super::orders::{candidate_orders, tie_histories, tie_order};
use super::precondition::{
    gap_inserts, gap_inserts_after_aborts, gap_inserts_that_committed, newer_snapshot_steps,
    occasion,
};
use super::schedule::{fcrfs, tx_serial, Unit};
use super::snapshot::snapshot_replay;
use super::statement_order::statement_order;
use super::uncommitted_replay::uncommitted_replay;
use super::{compares_reads, order, savepoints_open_txns, violations, NotShown};
use crate::permit::{permissions, promises_some_serial_order, Evidence};
use crate::{Excuse, Permissible, SerialLevel};
use std::collections::HashMap;
use txhunt_db::profile::claim::{Behaviour, Claim};
use txhunt_exec::Runner;
use txhunt_model::{ErrorClass, History, SqlFamily, Step, Stmt, StmtKind, TestCase, TxnStatus};
use txhunt_sql::analysis::locks_rows;

/// The first permission of the target's profile at the history's level whose occasion the run
/// shows ([`occasion`]) and whose evidence holds, or, for each permission, why it does not
/// explain the violation. Evidence that took another path than the run (a variant in which
/// other transactions commit or abort) shows nothing: the behaviour "could not be shown", and
/// unless another one explains the violation it stays a bug candidate.
pub fn explain(
    case: &TestCase,
    history: &History,
    runner: &dyn Runner,
) -> Result<Permissible, Vec<String>> {
    let profile = runner.profile();
    let permissions = permissions(profile, history.isolation);
    if permissions.is_empty() {
        return Err(vec![format!(
            "not permissible: {} documents no behaviour at {} that relaxes write serializability",
            profile.name(),
            history.isolation
        )]);
    }
    let mut decided: HashMap<Evidence, Result<String, NotShown>> = HashMap::new();
    let mut ruled_out = Vec::new();
    // Whether each behaviour had its occasion in the run (decided once per behaviour).
    let mut occasions: HashMap<Behaviour, bool> = HashMap::new();
    'permissions: for permission in permissions {
        let claims: Vec<_> = [Some(permission.claim), permission.also]
            .into_iter()
            .flatten()
            .collect();
        let id = (claims.iter())
            .map(|c| c.behaviour.name())
            .collect::<Vec<_>>()
            .join("+");
        for claim in &claims {
            let behaviour = claim.behaviour;
            let had_occasion = *occasions.entry(behaviour).or_insert_with(|| {
                match occasion(behaviour, case, history, profile.family()) {
                    Ok(()) => true,
                    Err(why) => {
                        ruled_out.push(format!("not {}: {why}", behaviour.name()));
                        false
                    }
                }
            });
            if !had_occasion {
                continue 'permissions;
            }
        }
        let mut shown = Vec::new();
        for &evidence in &permission.evidence {
            let result = decided
                .entry(evidence)
                .or_insert_with(|| decide(evidence, case, history, runner));
            match result {
                Ok(line) => shown.push(line.clone()),
                Err(why) if why.inconclusive => {
                    ruled_out.push(format!(
                        "permissible behaviour {id} could not be shown: {why}"
                    ));
                    continue 'permissions;
                }
                Err(why) => {
                    ruled_out.push(format!("not {id}: {why}"));
                    continue 'permissions;
                }
            }
        }
        let joined = |part: fn(&Claim) -> &'static str| {
            claims.iter().map(part).collect::<Vec<_>>().join("; and ")
        };
        return Ok(Permissible {
            excuse: Excuse::Permissible,
            behaviour: id,
            reason: joined(|c| c.reason),
            source: joined(|c| c.source),
            evidence: shown,
            ruled_out,
        });
    }
    Err(ruled_out)
}

/// Whether one piece of evidence holds: `Ok` with what showed it, `Err` with what did not.
fn decide(
    evidence: Evidence,
    case: &TestCase,
    history: &History,
    runner: &dyn Runner,
) -> Result<String, NotShown> {
    match evidence {
        Evidence::StrongerLevel(level) | Evidence::FirstUpdaterWinsAt(level) => {
            if !runner.profile().isolation_levels().contains(&level) {
                return Err(format!("{} offers no {level}", runner.profile().name()).into());
            }
            let stronger = runner
                .run(case, level)
                .map_err(|e| format!("the case could not run at {level}: {e}"))?;
            let what = format!("at {level} the same case");
            // A serialization failure of a write or locking read that read a newer snapshot in
            // the run: first updater wins where READ COMMITTED moved to the newest version.
            let newer = match evidence {
                Evidence::FirstUpdaterWinsAt(_) => {
                    newer_snapshot_steps(case, history, runner.profile().family())
                }
                _ => Vec::new(),
            };
            let recheck_refused = |step: usize| {
                let stmt = &case.steps[step].stmt;
                newer.contains(&step)
                    && (stmt.kind().is_write() || locks_rows(&stmt.sql, runner.profile().family()))
                    && stronger.steps[step]
                        .outcome
                        .error()
                        .is_some_and(|e| e.class == ErrorClass::Serialization)
            };
            same_path((case, history), (case, &stronger), &what, &recheck_refused)?;
            let refused: Vec<String> = (0..case.steps.len())
                .filter(|&s| recheck_refused(s))
                .map(|s| format!("{} `{}`", case.steps[s].session, case.steps[s].stmt.sql))
                .collect();
            let refused = if refused.is_empty() {
                String::new()
            } else {
                format!(
                    ", refusing with a serialization failure (first updater wins) what read a newer snapshot here: {}",
                    refused.join(", ")
                )
            };
            write_serializable(case, &stronger, runner)
                .or_else(|why| permissible_there(case, history, &stronger, runner).ok_or(why))
                .map(|how| format!("at {level} the same case {how}{refused}"))
                .map_err(|why| format!("at {level} the same case {why}").into())
        }
        Evidence::LockedUpdate => {
            let (variant, updates) = locked_updates(case, runner.profile().family())?;
            let which = if updates == 1 {
                "its UPDATE statement".to_string()
            } else {
                format!("each of its {updates} UPDATE statements")
            };
            let what = format!("with a SELECT … FOR UPDATE of its rows before {which}, the case");
            variant_shows(
                (case, history),
                &variant,
                "the locking-read variant",
                &what,
                runner,
            )
        }
        Evidence::WithoutGapInserts => {
            let family = runner.profile().family();
            let all = gap_inserts(case, history, family);
            if all.is_empty() {
                return Err("no INSERT went into an open range (an UPDATE did)".into());
            }
            // Removing every gap insert may change the run's path (its deadlock victims):
            // then fewer are removed, as long as the variant's path differs.
            let mut shown = without_inserts(case, history, runner, &all);
            let mut tried = vec![all];
            for fewer in [
                gap_inserts_after_aborts(case, history, family),
                gap_inserts_that_committed(case, history, family),
            ] {
                let inconclusive = matches!(&shown, Err(e) if e.inconclusive);
                if !inconclusive || fewer.is_empty() || tried.contains(&fewer) {
                    continue;
                }
                shown = without_inserts(case, history, runner, &fewer);
                tried.push(fewer);
            }
            shown
        }
        Evidence::SomeSerialOrder => {
            let units = fcrfs(case, history, savepoints_open_txns(runner))
                .ok_or("the history cannot be judged")?;
            some_serial_order(case, history, &units, runner)
        }
        Evidence::SnapshotReplay => {
            let units = fcrfs(case, history, savepoints_open_txns(runner))
                .ok_or("the history cannot be judged")?;
            snapshot_replay(case, history, &units, runner)
        }
        Evidence::StatementOrder => statement_order(case, history, runner),
        Evidence::CommittedReplay => in_some_tie_order(case, history, runner, committed_replay),
        Evidence::LockedUpdateWithoutGapInserts => {
            let family = runner.profile().family();
            let inserts = gap_inserts(case, history, family);
            if inserts.is_empty() {
                return Err("no INSERT went into an open range (an UPDATE did)".into());
            }
            let (variant, _) = locked_updates(&without_steps(case, &inserts), family)?;
            let what = format!(
                "with a SELECT … FOR UPDATE of its rows before each UPDATE and without its inserts into an open range ({}), the case",
                quoted(case, &inserts)
            );
            variant_shows((case, history), &variant, "the variant", &what, runner)
        }
        Evidence::WritesOnCommittedVersions => {
            in_some_tie_order(case, history, runner, writes_on_committed_versions)
        }
        Evidence::UncommittedReplay => in_some_tie_order(case, history, runner, uncommitted_replay),
    }
}

/// A replay of a history's FCRFS units that places each statement where it completed
/// ([`committed_replay`], [`writes_on_committed_versions`], [`uncommitted_replay`]).
type Replay = fn(&TestCase, &History, &[Unit], &dyn Runner) -> Result<String, NotShown>;

/// `replay` on `history`'s FCRFS units,
/// else on the first history the observation cannot tell from it where it holds
/// ([`tie_histories`]: statements that resumed together, in another order), saying which
/// order; else what it met on `history`. The order in which such statements' results reached txhunt need not be the
/// order the DBMS ran them in (case 3249 of seed 7006 on MariaDB: an autocommit UPDATE and
/// another transaction's UPDATE waited for one lock; the first took it, committed and let the
/// second go on, which then matched nothing; the second's answer arrived first).
fn in_some_tie_order(
    case: &TestCase,
    history: &History,
    runner: &dyn Runner,
    replay: Replay,
) -> Result<String, NotShown> {
    let show = |h: &History| {
        let units =
            fcrfs(case, h, savepoints_open_txns(runner)).ok_or("the history cannot be judged")?;
        replay(case, h, &units, runner)
    };
    let observed = show(history);
    if observed.is_err() {
        for other in tie_histories(history) {
            if let Ok(how) = show(&other) {
                return Ok(format!(
                    "{how}, the statements that resumed together completing in the order {} (their answers arrived together: the order they ran in is not known)",
                    tie_order(case, &other)
                ));
            }
        }
    }
    observed
}

/// When the run at a stronger level (`stronger`, which took the run's path) violates WSS too
/// but ends in the run's final state and a behaviour documented *there* explains it (e.g.
/// PostgreSQL's REPEATABLE READ write skew, for a READ COMMITTED run): what showed it. The
/// run's final state is then one the stronger level allows, and the weaker level allows all
/// the stronger one does. `None` otherwise.
fn permissible_there(
    case: &TestCase,
    history: &History,
    stronger: &History,
    runner: &dyn Runner,
) -> Option<String> {
    if stronger.final_state.is_none() || stronger.final_state != history.final_state {
        return None;
    }
    let there = explain(case, stronger, runner).ok()?;
    Some(format!(
        "ends in the run's final state, which {} allows there ({}: {})",
        runner.profile().name(),
        there.behaviour,
        there.evidence.join("; ")
    ))
}

/// The no-gap-locks evidence: the case without the INSERT steps `inserts` (each replaced by
/// `SELECT 1`, so steps keep their places) takes the run's path and is write-serializable.
fn without_inserts(
    case: &TestCase,
    history: &History,
    runner: &dyn Runner,
    inserts: &[usize],
) -> Result<String, NotShown> {
    let what = format!(
        "without its insert{} into an open range ({}), the case",
        if inserts.len() == 1 { "" } else { "s" },
        quoted(case, inserts)
    );
    let variant = without_steps(case, inserts);
    let name = "the variant without its gap inserts";
    variant_shows((case, history), &variant, name, &what, runner)
}

/// `case` with `steps` each replaced by a statement that does nothing (`SELECT 1`, so that
/// every step keeps its place).
fn without_steps(case: &TestCase, steps: &[usize]) -> TestCase {
    let mut variant = case.clone();
    for &i in steps {
        variant.steps[i].stmt = Stmt::new("SELECT 1");
    }
    variant
}

/// The SQL of `steps` of `case`, each quoted, comma-separated.
fn quoted(case: &TestCase, steps: &[usize]) -> String {
    (steps.iter())
        .map(|&i| format!("`{}`", case.steps[i].stmt.sql))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Runs `variant` (`name` in errors) at `history`'s level: `Ok` when it took the run's path
/// and is write-serializable, each line starting with `what`.
fn variant_shows(
    (case, history): (&TestCase, &History),
    variant: &TestCase,
    name: &str,
    what: &str,
    runner: &dyn Runner,
) -> Result<String, NotShown> {
    let ran = runner
        .run(variant, history.isolation)
        .map_err(|e| format!("{name} could not run: {e}"))?;
    same_path((case, history), (variant, &ran), what, &|_| false)?;
    write_serializable(variant, &ran, runner)
        .map(|how| format!("{what} {how}"))
        .map_err(|why| format!("{what} {why}").into())
}

/// `Ok` when `variant` (a run of `variant_case`, a variant of `case` described by `what`) took
/// the same path as `history`: every transaction committed, rolled back or was aborted as in `history`.
/// Transactions are matched by label (a variant keeps each transaction's session and order).
/// A transaction the variant aborted at a step `expected` accepts is the same path.
fn same_path(
    (case, history): (&TestCase, &History),
    (variant_case, variant): (&TestCase, &History),
    what: &str,
    expected: &dyn Fn(usize) -> bool,
) -> Result<(), NotShown> {
    let fate = |case: &TestCase, h: &History, label: &str| -> Option<String> {
        let record = h.txns.iter().find(|t| t.label == label)?;
        Some(match &record.status {
            TxnStatus::Committed => "committed".into(),
            TxnStatus::RolledBack => "rolled back".into(),
            TxnStatus::Unfinished => "unfinished".into(),
            TxnStatus::Aborted { step, .. } => format!(
                "aborted by `{}`: {}",
                case.steps[*step].stmt.sql, h.steps[*step].outcome
            ),
        })
    };
    let ended = |h: &History, label: &str| {
        h.txns
            .iter()
            .find(|t| t.label == label)
            .map(|t| std::mem::discriminant(&t.status))
    };
    for record in &history.txns {
        let label = record.label.as_str();
        let aborted_as_expected = variant.txns.iter().any(|t| {
            t.label == label
                && matches!(t.status, TxnStatus::Aborted { step, .. } if expected(step))
        });
        if ended(history, label) != ended(variant, label) && !aborted_as_expected {
            let there = fate(variant_case, variant, label).unwrap_or_else(|| "missing".into());
            return Err(NotShown::inconclusive(format!(
                "{what} took another path: {label} {there}, where the run's {label} {}",
                fate(case, history, label).unwrap_or_default()
            )));
        }
    }
    Ok(())
}

/// `case` with every UPDATE preceded by the locking read of the rows it chooses (in its
/// transaction; an autocommit UPDATE becomes BEGIN, read, UPDATE, COMMIT), and how many
/// UPDATEs there were; an error when there are none or one has no locking read.
fn locked_updates(case: &TestCase, family: SqlFamily) -> Result<(TestCase, usize), NotShown> {
    let in_explicit: Vec<usize> = case
        .txns()
        .iter()
        .filter(|t| t.explicit)
        .flat_map(|t| t.steps.clone())
        .collect();
    let mut variant = case.clone();
    variant.steps.clear();
    let mut updates = 0;
    for (i, step) in case.steps.iter().enumerate() {
        if step.stmt.kind() != StmtKind::Update {
            variant.steps.push(step.clone());
            continue;
        }
        let read = txhunt_sql::rewrite::locking_read_of_update(&step.stmt.sql, family)
            .ok_or_else(|| format!("`{}` has no locking read", step.stmt.sql))?;
        let with = |sql: &str| Step {
            session: step.session.clone(),
            stmt: Stmt::new(sql),
        };
        let wrap = !in_explicit.contains(&i);
        if wrap {
            variant.steps.push(with("BEGIN"));
        }
        variant.steps.push(with(&read));
        variant.steps.push(step.clone());
        if wrap {
            variant.steps.push(with("COMMIT"));
        }
        updates += 1;
    }
    if updates == 0 {
        return Err("the case has no UPDATE".into());
    }
    Ok((variant, updates))
}

/// `Ok("is write-serializable …")` when `history` of `case` shows no WSS violation, or, at a
/// level where the DBMS promises only *some* serial order ([`promises_some_serial_order`]),
/// when its final state and writes are those of some
/// serial order; else `Err` saying what it showed. Elsewhere commit order is required: a
/// variant that is serializable only in another order may simply repeat the original's
/// anomaly (a missing gap lock orders an insert after the range write it escaped).
fn write_serializable(
    case: &TestCase,
    history: &History,
    runner: &dyn Runner,
) -> Result<String, NotShown> {
    let units = fcrfs(case, history, savepoints_open_txns(runner)).ok_or(
        "cannot be judged (a statement hung or never completed, or a savepoint ran after an abort)",
    )?;
    let found = violations(case, history, runner);
    if !found.unjudged.is_empty() {
        let reasons: Vec<&str> = found.unjudged.iter().map(|u| u.reason.as_str()).collect();
        return Err(format!("could not be judged ({})", reasons.join("; ")).into());
    }
    if found.findings.is_empty() {
        return Ok(format!(
            "is write-serializable in commit order ({})",
            order(&units)
        ));
    }
    let signatures: Vec<String> = found
        .findings
        .iter()
        .map(|f| f.signature.to_string())
        .collect();
    let violated = format!("violates WSS too ({})", signatures.join(", "));
    if !promises_some_serial_order(runner.profile(), history.isolation) {
        return Err(violated.into());
    }
    some_serial_order(case, history, &units, runner)
        .map(|how| format!("is write-serializable: {how}"))
        .map_err(|_| violated.into())
}

/// `Ok` naming a serial order of the committed transactions, other than commit order, that
/// reproduces the final state and the success of every committed write; `Err` when none of
/// the orders tried does.
fn some_serial_order(
    case: &TestCase,
    history: &History,
    units: &[Unit],
    runner: &dyn Runner,
) -> Result<String, NotShown> {
    let state = history.final_state.as_ref().ok_or("no final state")?;
    let committed: Vec<&Unit> = units.iter().filter(|u| u.committed).collect();
    let reads = compares_reads(history, runner);
    let orders = candidate_orders(committed.len(), snapshot_order(history, &committed));
    let tried = orders.len();
    for candidate in orders {
        let ordered: Vec<Unit> = candidate.iter().map(|&i| committed[i].clone()).collect();
        let serial = tx_serial(case, &ordered);
        let Ok(ran) = runner.run(&serial.case, history.isolation) else {
            continue;
        };
        let differences = compare(
            SerialLevel::Transaction,
            case,
            history,
            state,
            &ordered,
            &serial,
            &ran,
            reads,
        );
        if differences.is_empty() {
            return Ok(format!(
                "the serial order {} reproduces the final state and every committed write",
                order(&ordered)
            ));
        }
    }
    Err(format!(
        "no other serial order of the committed transactions ({tried} tried) reproduces the final state and writes"
    )
    .into())
}

/// The committed transactions ordered by when their first statement completed: under
/// snapshot isolation roughly the order of their snapshots.
fn snapshot_order(history: &History, committed: &[&Unit]) -> Vec<usize> {
    let start = |u: &Unit| {
        u.steps
            .iter()
            .filter_map(|&s| history.steps[s].completed)
            .min()
            .unwrap_or(usize::MAX)
    };
    let mut order: Vec<usize> = (0..committed.len()).collect();
    order.sort_by_key(|&i| start(committed[i]));
    order
}
