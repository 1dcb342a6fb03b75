//! The WSS oracle on real DBMSs: it fires on the paper's permissible violations where the DBMS
//! allows them, and never on serial or correct schedules.

use proptest::prelude::*;
use std::path::Path;
use txhunt_db::{open_target, Target};
use txhunt_exec::{Executor, TargetRunner};
use txhunt_model::{check, scenario, History, Isolation, Outcome, Step, TestCase};
use txhunt_oracle::wss::schedule::fcrfs;
use txhunt_oracle::wss::Wss;
use txhunt_oracle::{Detail, Finding, Oracle, Permissible};
use txhunt_sql::dialect::Sqlite;
use txhunt_sql::{generate, GenConfig};

fn example(name: &str) -> TestCase {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("example");
    scenario::parse(&text, name).expect("parses")
}

/// Runs `case` at `level` (its expectations must hold at the levels it is written for) and
/// judges it with WSS, which must have been able to judge it (its serial schedules ran).
fn judge(target: &dyn Target, case: &TestCase, level: Isolation) -> Vec<Finding> {
    judged(target, case, level).1
}

/// [`judge`], and whether the history could be judged at all (see [`fcrfs`]).
fn judged(target: &dyn Target, case: &TestCase, level: Isolation) -> (bool, Vec<Finding>) {
    let (history, runner) = execute(target, case, level);
    let meant = &case.header.isolation;
    if meant.is_empty() || meant.contains(&level) {
        let checks = check(case, &history);
        assert!(checks.iter().all(|c| c.passed), "{checks:#?}");
    }
    let judgeable = fcrfs(
        case,
        &history,
        target.profile().savepoint_opens_transaction(),
    )
    .is_some();
    let verdict = Wss.check(case, &history, &runner);
    assert!(verdict.unjudged.is_empty(), "{:#?}", verdict.unjudged);
    (judgeable, verdict.findings)
}

/// Runs `case` at `level` on `target`; the runner re-executes on the same target.
fn execute<'a>(
    target: &'a dyn Target,
    case: &TestCase,
    level: Isolation,
) -> (History, TargetRunner<'a>) {
    let runner = TargetRunner {
        executor: Executor::default(),
        target,
    };
    let history = Executor::default()
        .execute(target, case, level)
        .expect("runs");
    (history, runner)
}

/// A finding's evidence as the lines `txhunt run` prints.
fn evidence(finding: &Finding) -> Vec<String> {
    finding.details.iter().flat_map(Detail::lines).collect()
}

fn signatures(findings: &[Finding]) -> Vec<String> {
    findings.iter().map(|f| f.signature.to_string()).collect()
}

#[test]
fn paper_listings_violate_wss_at_read_committed_on_mariadb_but_not_at_repeatable_read() {
    let mariadb = open_target("mariadb", None).expect("the MariaDB testbed must start");
    let semi = example("wss/semi-consistent-read.sql");
    let findings = judge(mariadb.as_ref(), &semi, Isolation::ReadCommitted);
    assert_eq!(
        signatures(&findings),
        ["tx-wss:final-state", "stmt-wss:final-state"],
        "{findings:#?}"
    );
    let details = evidence(&findings[0]).join("\n");
    assert!(
        details.contains("serial order (tx-wss, FCRFS): t1 → t2"),
        "{details}"
    );
    assert!(
        details.contains("t: concurrent [(1, 'tx2'), (5, 'tx1')]"),
        "{details}"
    );
    assert!(
        details.contains("t: serial     [(1, 'tx2'), (1, 'tx2')]"),
        "{details}"
    );
    let why = permissible(&findings, "semi-consistent-read");
    assert!(why.source.contains("§17.7.2.1"), "{why:?}");
    // The variant differs only in the mechanism: each UPDATE's rows locked first; and each
    // UPDATE skipped only rows whose committed version did not match.
    assert_eq!(why.evidence.len(), 2, "{why:?}");
    assert!(
        why.evidence[1].starts_with("every UPDATE and DELETE that did not wait (t1 `UPDATE t SET c1 = 5, c2 = 'tx1' WHERE c1 = 1`, t2 `UPDATE t SET c1 = 1, c2 = 'tx2' WHERE c1 = 5`) answers as it does alone on the newest committed versions"),
        "{why:?}"
    );
    assert!(
        why.evidence[0].starts_with(
            "with a SELECT … FOR UPDATE of its rows before each of its 2 UPDATE statements, the case is write-serializable"
        ),
        "{why:?}"
    );

    let gap = example("wss/missing-gap-lock.sql");
    let findings = judge(mariadb.as_ref(), &gap, Isolation::ReadCommitted);
    assert_eq!(
        signatures(&findings),
        ["tx-wss:final-state", "stmt-wss:final-state"],
        "{findings:#?}"
    );
    assert!(evidence(&findings[0])
        .join("\n")
        .contains("serial order (tx-wss, FCRFS): t2 → t1"));
    let why = permissible(&findings, "no-gap-locks");
    assert_eq!(why.evidence.len(), 2, "{why:?}");
    assert!(
        why.evidence[0].starts_with("at repeatable-read the same case is write-serializable"),
        "{why:?}"
    );
    assert!(judge(mariadb.as_ref(), &gap, Isolation::RepeatableRead).is_empty());
}

/// The permissible verdict every finding carries, which must name `behaviour`.
fn permissible(findings: &[Finding], behaviour: &str) -> Permissible {
    let verdicts: Vec<_> = findings.iter().map(|f| f.permissible.clone()).collect();
    let first = verdicts[0].clone().expect("permissible");
    assert!(verdicts.iter().all(|v| v.as_ref() == Some(&first)));
    assert_eq!(first.behaviour, behaviour, "{first:?}");
    first
}

#[test]
fn snapshot_behaviours_on_postgres_are_permissible_by_their_evidence() {
    let postgres = open_target("postgres", None).expect("the PostgreSQL testbed must start");
    let skew = example("wss/write-skew.sql");
    let findings = judge(postgres.as_ref(), &skew, Isolation::RepeatableRead);
    let why = permissible(&findings, "write-skew");
    // SERIALIZABLE would abort one of them: another path. Replay on snapshots shows it.
    assert!(
        why.evidence[0].starts_with(
            "every committed transaction (t1 → t2) answers as it does alone on its snapshot"
        ),
        "{why:?}"
    );
    assert!(why.ruled_out[0].starts_with("not snapshot-order: no other serial order"));
    assert!(judge(postgres.as_ref(), &skew, Isolation::Serializable).is_empty());

    let ssi = example("wss/ssi-order.sql");
    let findings = judge(postgres.as_ref(), &ssi, Isolation::Serializable);
    assert!(evidence(&findings[0])
        .iter()
        .any(|d| d.starts_with("reads not compared: postgres's SERIALIZABLE reads a snapshot")));
    let why = permissible(&findings, "ssi-order");
    assert_eq!(
        why.evidence,
        ["the serial order t1 → t2 reproduces the final state and every committed write"]
    );
    let findings = judge(postgres.as_ref(), &ssi, Isolation::ReadCommitted);
    let why = permissible(&findings, "read-committed");
    assert!(
        why.evidence[0].starts_with(
            "every committed transaction (t2 → t1) answers as it does alone on its snapshot"
        ),
        "{why:?}"
    );
    // PostgreSQL's own example (§13.2.1): the DELETE that waited re-checks `hits = 10` on the
    // updated rows and deletes nothing. At SERIALIZABLE it is refused instead (first updater
    // wins): the mechanism switched off, not another path.
    let website = case_of(
        "/* init */ CREATE TABLE website(hits INT);\n\
         /* init */ INSERT INTO website VALUES (9), (10);\n\
         /* t1 */ BEGIN;\n\
         /* t1 */ UPDATE website SET hits = hits + 1;\n\
         /* t2 */ DELETE FROM website WHERE hits = 10;  -- expect: blocked then affected 0\n\
         /* t1 */ COMMIT;\n",
    );
    let findings = judge(postgres.as_ref(), &website, Isolation::ReadCommitted);
    let why = permissible(&findings, "read-committed");
    assert_eq!(
        why.evidence,
        ["at serializable the same case is write-serializable in commit order (t1), refusing with a serialization failure (first updater wins) what read a newer snapshot here: t2 `DELETE FROM website WHERE hits = 10`"]
    );
    // Where no snapshot explains the run, a stronger level that takes the same path does.
    let gap = example("wss/missing-gap-lock.sql");
    let findings = judge(postgres.as_ref(), &gap, Isolation::ReadCommitted);
    let why = permissible(&findings, "read-committed");
    assert!(
        why.ruled_out[0].starts_with(
            "not read-committed: t1 `UPDATE t SET c1 = c1 + 1` answered affected 1 concurrently"
        ),
        "{why:?}"
    );
    assert!(
        why.evidence[0].starts_with("at serializable the same case is write-serializable"),
        "{why:?}"
    );
}

#[test]
fn an_unexplained_violation_is_a_bug_candidate_that_says_why() {
    // A nondeterministic write violates WSS on any DBMS; nothing documented explains it.
    let case = scenario::parse(
        "/* init */ CREATE TABLE t(v REAL);\n\
         /* t1 */ BEGIN;\n\
         /* t1 */ INSERT INTO t SELECT random();\n\
         /* t1 */ COMMIT;\n",
        "random.sql",
    )
    .unwrap();
    let sqlite = open_target("sqlite", None).unwrap();
    let findings = judge(sqlite.as_ref(), &case, Isolation::Serializable);
    assert_eq!(
        signatures(&findings),
        ["tx-wss:final-state", "stmt-wss:final-state"]
    );
    assert!(findings.iter().all(Finding::is_candidate));
    assert!(
        evidence(&findings[0]).last().unwrap().contains(
            "not permissible: sqlite documents no behaviour at serializable that relaxes write serializability"
        ),
        "{:#?}",
        findings[0].details
    );
}

#[test]
fn the_sqlite_examples_satisfy_wss() {
    let sqlite = open_target("sqlite", None).unwrap();
    for (name, level) in [
        ("01-writer-blocks-writer.sql", Isolation::Serializable),
        ("02-busy-deadlock.sql", Isolation::Serializable),
        ("03-rollback-undoes.sql", Isolation::Serializable),
        ("04-savepoint.sql", Isolation::Serializable),
        ("05-autocommit-interleaved.sql", Isolation::Serializable),
        ("06-dirty-read.sql", Isolation::ReadUncommitted),
        ("07-stale-snapshot.sql", Isolation::Serializable),
    ] {
        let findings = judge(sqlite.as_ref(), &example(name), level);
        assert!(findings.is_empty(), "{name}: {findings:#?}");
    }
}

/// The case with each transaction's statements submitted together, one transaction after
/// another: nothing overlaps in time.
fn serialized(case: &TestCase) -> TestCase {
    let mut steps: Vec<Step> = Vec::new();
    for txn in case.txns() {
        steps.extend(txn.steps.iter().map(|&s| case.steps[s].clone()));
    }
    TestCase {
        steps,
        ..case.clone()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]
    #[test]
    fn transactions_that_do_not_overlap_never_violate_wss(seed in any::<u64>()) {
        let sqlite = open_target("sqlite", None).unwrap();
        let level = if seed % 2 == 0 { Isolation::Serializable } else { Isolation::ReadUncommitted };
        let generated = generate(seed, &GenConfig::default(), &Sqlite, level, None);
        let case = serialized(&generated.case);
        let (judgeable, findings) = judged(sqlite.as_ref(), &case, level);
        // Run one transaction after another, no statement hangs or waits: the oracle judges.
        prop_assert!(judgeable, "not judged:\n{}", scenario::print(&case));
        prop_assert!(findings.is_empty(), "{}\n{findings:#?}", scenario::print(&case));
    }
}

#[test]
fn statements_the_concurrency_control_refused_are_left_out_of_the_serial_schedule() {
    let sqlite = open_target("sqlite", None).unwrap();
    // At read-uncommitted (shared cache) SQLite refuses the second writer at once
    // (SQLITE_LOCKED): the INSERT had no effect, so the serial schedule must not re-run it.
    let case = scenario::parse(
        "/* init */ CREATE TABLE t(k INT);
/* t1 */ BEGIN;
/* t1 */ INSERT INTO t VALUES (1);
/* t2 */ INSERT INTO t VALUES (2);  -- expect: error lock-timeout
/* t1 */ COMMIT;
",
        "refused.sql",
    )
    .unwrap();
    let runner = TargetRunner {
        executor: Executor::default(),
        target: sqlite.as_ref(),
    };
    let history = Executor::default()
        .execute(sqlite.as_ref(), &case, Isolation::ReadUncommitted)
        .unwrap();
    for c in txhunt_model::check(&case, &history) {
        assert!(c.passed, "{c:?}");
    }
    assert_eq!(Wss.check(&case, &history, &runner), Default::default());
}

#[test]
fn a_transaction_replayed_to_roll_back_does_not_leave_autocommit_writes_behind() {
    // Concurrently t1 fails at its last UPDATE and is rolled back. Serially (after t2) its
    // first UPDATE already fails; what t1 has left must not then run in autocommit.
    let case = scenario::parse(
        "/* init */ CREATE TABLE t0(a0 INT PRIMARY KEY);\n\
         /* init */ INSERT INTO t0 VALUES (25);\n\
         /* t1 */ BEGIN;\n\
         /* t1 */ UPDATE t0 SET a0 = 25 WHERE a0 < 25;  -- expect: affected 0\n\
         /* t2 */ INSERT INTO t0 VALUES (-7);\n\
         /* t1 */ INSERT INTO t0 VALUES (7);\n\
         /* t1 */ UPDATE t0 SET a0 = 25 WHERE a0 = 7;  -- expect: error constraint\n\
         /* t1 */ COMMIT;\n\
         -- expect final: t0 = [(-7), (25)]\n",
        "replay.sql",
    )
    .unwrap();
    let postgres = open_target("postgres", None).expect("the PostgreSQL testbed must start");
    let findings = judge(postgres.as_ref(), &case, Isolation::ReadCommitted);
    assert!(findings.is_empty(), "{findings:#?}");
}

#[test]
fn an_autocommit_locking_read_at_serializable_reads_its_subquery_from_a_snapshot() {
    // InnoDB: t1's autocommit SELECT … FOR UPDATE waits for t2's row lock on u, but its
    // subquery on t is a consistent read from when it started: it still sees k = 0 after t2
    // committed k = 1. Documented (MySQL 8.0 manual §17.7.2.1, §17.7.2.4), not compared.
    let case = scenario::parse(
        "/* init */ CREATE TABLE t(id INT PRIMARY KEY, k INT);\n\
         /* init */ CREATE TABLE u(k INT);\n\
         /* init */ INSERT INTO t VALUES (1, 0);\n\
         /* init */ INSERT INTO u VALUES (0), (1);\n\
         /* t2 */ BEGIN;\n\
         /* t2 */ UPDATE u SET k = k WHERE k = 0;\n\
         /* t1 */ SELECT * FROM u WHERE k IN (SELECT k FROM t WHERE id = 1) FOR UPDATE;  -- expect: blocked then rows [(0)]\n\
         /* t2 */ UPDATE t SET k = 1 WHERE id = 1;\n\
         /* t2 */ COMMIT;\n",
        "subquery.sql",
    )
    .unwrap();
    let mariadb = open_target("mariadb", None).expect("the MariaDB testbed must start");
    let findings = judge(mariadb.as_ref(), &case, Isolation::Serializable);
    assert!(findings.is_empty(), "{findings:#?}");
}

#[test]
fn an_insert_into_a_range_updated_without_gap_locks_is_not_taken_for_semi_consistent_read() {
    // The locking-read variant is serializable in the order t1 → t2, as the original is:
    // only commit order discriminates at read-committed.
    let case = scenario::parse(
        "/* init */ CREATE TABLE t(k INT PRIMARY KEY, v TEXT);\n\
         /* t1 */ BEGIN;\n\
         /* t1 */ UPDATE t SET v = 'x';  -- expect: affected 0\n\
         /* t2 */ INSERT INTO t VALUES (1, 'a');  -- expect: affected 1\n\
         /* t1 */ COMMIT;\n",
        "empty-range.sql",
    )
    .unwrap();
    let mariadb = open_target("mariadb", None).expect("the MariaDB testbed must start");
    let findings = judge(mariadb.as_ref(), &case, Isolation::ReadCommitted);
    let why = permissible(&findings, "no-gap-locks");
    // t1's UPDATE ran before t2 wrote anything: semi-consistent read had no occasion.
    assert_eq!(
        why.ruled_out,
        ["not semi-consistent-read: no UPDATE ran beside another open transaction's write to its table"]
    );
}

#[test]
fn a_mariadb_delete_that_misses_a_row_moved_twice_is_a_bug_candidate_not_a_missing_gap_lock() {
    let (_, findings) = wss_of(
        "mariadb-pk-update-then-delete.sql",
        "mariadb",
        Isolation::ReadCommitted,
    );
    assert_final_state_candidates(&findings);
    // t1's second UPDATE moves the row behind the DELETE that waits for it (the missing gap
    // lock's occasion), but neither REPEATABLE READ (a deadlock) nor the case without an
    // INSERT (there is none) shows that gap locks would change anything.
    let lines = evidence(&findings[0]);
    assert!(
        lines.iter().any(|l| l.starts_with(
            "permissible behaviour no-gap-locks could not be shown: at repeatable-read the same case took another path"
        )) && lines.contains(&"not no-gap-locks: no INSERT went into an open range (an UPDATE did)".to_string()),
        "{lines:#?}"
    );
}

#[test]
fn a_delete_that_waited_misses_a_row_inserted_behind_its_scan_as_innodb_scans() {
    let (history, findings) = wss_of(
        "mariadb-ru-delete-misses-insert-behind-its-scan.sql",
        "mariadb",
        Isolation::ReadUncommitted,
    );
    assert!(
        !findings.is_empty(),
        "no serial order leaves (-2, -1): {history:#?}"
    );
    let why = permissible(&findings, "dirty-read");
    // t1's UPDATE replays on the newest committed versions only where t3's DELETE, which
    // waited, is replayed as its scan read the rows: (-2, -1) behind it, never read.
    assert!(
        why.evidence.iter().any(|e| e.starts_with(
            "every UPDATE and DELETE that did not wait (t1 `UPDATE t SET x = t.x + 3`) answers as it does"
        )),
        "{why:#?}"
    );
}

/// The waited-for row was gone when the UPDATE resumed, and its holder's upsert, which could
/// have updated (moved) a row, only inserted: its replay shows it, so the row is taken as
/// deleted, and the scan replayed from it (`tests/wss/…-update-misses-upsert-behind-its-scan`).
#[test]
fn an_upsert_that_only_inserted_behind_a_waiting_scan_moved_no_row() {
    let (history, findings) = wss_of(
        "mariadb-ru-update-misses-upsert-behind-its-scan.sql",
        "mariadb",
        Isolation::ReadUncommitted,
    );
    assert_eq!(history.steps[3].outcome, Outcome::Affected { count: 1 });
    assert!(
        !findings.is_empty(),
        "no serial order leaves (0, 5): {history:#?}"
    );
    // t1's UPDATE answers on the newest committed versions only where t3's UPDATE is replayed
    // as its scan read the rows: 0 behind it, never read.
    let shown = "t1 `UPDATE t SET v = t.v + 5 WHERE v = 0`) answers as it does";
    let evidence = |f: &Finding| f.permissible.as_ref().map(|p| p.evidence.join("\n"));
    assert!(
        findings
            .iter()
            .all(|f| evidence(f).is_some_and(|e| e.contains(shown))),
        "{findings:#?}"
    );
}

/// A DELETE that waited on a key of an integer and a string misses the row inserted behind its
/// scan: the scan model orders strings of digits and lower-case letters
/// (`tests/wss/mariadb-ru-delete-misses-insert-behind-its-scan-text-key.sql`).
#[test]
fn a_row_inserted_behind_a_waiting_scan_over_a_string_key_is_missed_permissibly() {
    let (history, findings) = wss_of(
        "mariadb-ru-delete-misses-insert-behind-its-scan-text-key.sql",
        "mariadb",
        Isolation::ReadUncommitted,
    );
    assert_eq!(history.steps[2].outcome, Outcome::Affected { count: 1 });
    assert!(
        !findings.is_empty(),
        "no serial order leaves (1, 'c'): {history:#?}"
    );
    assert!(findings.iter().all(|f| !f.is_candidate()), "{findings:#?}");
}

/// A ROLLBACK TO that failed (its savepoint was never set) changed nothing: the replays go on
/// past it (`tests/wss/mariadb-ru-failed-rollback-to-savepoint.sql`).
#[test]
fn a_rollback_to_a_savepoint_never_set_changes_nothing_in_the_replays() {
    let (history, findings) = wss_of(
        "mariadb-ru-failed-rollback-to-savepoint.sql",
        "mariadb",
        Isolation::ReadUncommitted,
    );
    assert!(history.steps[3].outcome.error().is_some(), "{history:#?}");
    assert!(
        !findings.is_empty(),
        "no serial order leaves 5: {history:#?}"
    );
    // Shown at READ COMMITTED, where the same run is a missing gap lock's.
    let why = permissible(&findings, "dirty-read");
    assert!(
        !format!("{why:?}").contains("did not set"),
        "the failed ROLLBACK TO was replayed: {why:#?}"
    );
}

#[test]
fn a_waiting_scan_is_replayed_as_it_read_the_rows_where_the_variants_take_another_path() {
    for (file, behaviour) in [
        (
            "mariadb-rc-delete-misses-insert-behind-its-scan.sql",
            "no-gap-locks",
        ),
        (
            "mariadb-rc-update-skips-row-beside-secondary-index.sql",
            "semi-consistent-read",
        ),
    ] {
        let (history, findings) = wss_of(file, "mariadb", Isolation::ReadCommitted);
        assert!(!findings.is_empty(), "{file}: {history:#?}");
        let why = permissible(&findings, behaviour);
        assert!(
            why.evidence[0].contains(
                "on the rows its scan had passed before the wait as they were when it started"
            ),
            "{file}: {why:#?}"
        );
    }
}

#[test]
fn a_postgres_insert_of_a_key_a_concurrent_transaction_deleted_is_a_bug_candidate_at_repeatable_read(
) {
    let (_, findings) = wss_of(
        "postgres-rr-insert-after-concurrent-delete.sql",
        "postgres",
        Isolation::RepeatableRead,
    );
    assert_final_state_candidates(&findings);
    // Neither snapshot isolation's documented behaviour explains it.
    let lines = evidence(&findings[0]);
    assert!(
        lines.iter().any(|l| l.starts_with("not snapshot-order: "))
            && lines.iter().any(|l| l.starts_with("not write-skew: ")),
        "{lines:#?}"
    );
}

#[test]
fn read_committed_is_shown_statement_by_statement_where_no_snapshot_or_stronger_level_can() {
    let (_, findings) = wss_of(
        "postgres-rc-statement-order.sql",
        "postgres",
        Isolation::ReadCommitted,
    );
    assert!(!findings.is_empty(), "the DELETE's re-check violates WSS");
    let why = permissible(&findings, "read-committed");
    assert!(
        why.evidence[0].starts_with(
            "its statements give their results and final state run one at a time in the order "
        ) && why.evidence[0].ends_with("waited for a lock before it completed (read-committed)"),
        "{why:#?}"
    );
    let ruled_out = |start: &str| why.ruled_out.iter().any(|l| l.starts_with(start));
    assert!(
        ruled_out("not read-committed: ")
            && ruled_out(
                "permissible behaviour read-committed could not be shown: at serializable the same case took another path"
            )
            && ruled_out(
                "permissible behaviour read-committed could not be shown: at repeatable-read the same case took another path"
            ),
        "{why:#?}"
    );
}

#[test]
fn a_read_decycling_left_out_is_shown_on_the_state_committed_when_it_started() {
    let (_, findings) = wss_of(
        "postgres-rc-read-beside-open-delete.sql",
        "postgres",
        Isolation::ReadCommitted,
    );
    assert!(!findings.is_empty(), "t1's DELETE misses t3's row: not WSS");
    let why = permissible(&findings, "read-committed");
    assert!(
        why.evidence[0].contains(
            "step 10, left out of the order for a cycle through a write not yet committed when it read, gives its result on the state committed when it started (after steps 4, 5, 6, 9)"
        ),
        "{why:#?}"
    );
}

#[test]
fn a_stronger_level_that_allows_the_run_s_final_state_shows_the_weaker_one_allows_it() {
    let why = excused_on_postgres(
        "postgres-rc-write-skew-through-upsert.sql",
        Isolation::ReadCommitted,
        "read-committed",
    );
    assert!(
        why.evidence[0].starts_with(
            "at repeatable-read the same case ends in the run's final state, which postgres allows there (write-skew: "
        ),
        "{why:#?}"
    );
}

#[test]
fn a_locking_read_that_waited_for_a_delete_is_replayed_on_the_rows_still_there_when_it_completed() {
    let why = excused_on_postgres(
        "postgres-rc-locking-read-skips-row-deleted-while-it-waited.sql",
        Isolation::ReadCommitted,
        "read-committed",
    );
    assert!(
        why.evidence[0].contains("on those of its rows still there when it completed"),
        "{why:#?}"
    );
}

#[test]
fn a_transaction_alone_on_the_initial_state_sees_its_rows_in_the_order_the_setup_wrote_them() {
    let why = excused_on_postgres(
        "postgres-rr-write-skew-order-dependent-unique.sql",
        Isolation::RepeatableRead,
        "write-skew",
    );
    assert!(why.evidence[0].contains("t1 → t3"), "{why:#?}");
}

#[test]
fn a_transaction_without_statements_changes_nothing_in_the_snapshot_replay() {
    // A write skew, and t3: BEGIN and COMMIT only (as a reduction may leave one).
    let case = case_of(
        "/* init */ CREATE TABLE t (k INT PRIMARY KEY, v INT);
         /* init */ INSERT INTO t VALUES (1, 0), (2, 0);
         /* t1 */ BEGIN;
         /* t2 */ BEGIN;
         /* t3 */ BEGIN;
         /* t1 */ UPDATE t SET v = (SELECT sum(v) FROM t) + 1 WHERE k = 1;
         /* t2 */ UPDATE t SET v = (SELECT sum(v) FROM t) + 1 WHERE k = 2;
         /* t3 */ COMMIT;
         /* t1 */ COMMIT;
         /* t2 */ COMMIT;",
    );
    let postgres = open_target("postgres", None).expect("the PostgreSQL testbed must start");
    let (history, runner) = execute(postgres.as_ref(), &case, Isolation::RepeatableRead);
    let findings = Wss.check(&case, &history, &runner).findings;
    assert!(!findings.is_empty(), "{history:#?}");
    let why = permissible(&findings, "write-skew");
    assert!(why.evidence[0].contains("t1 → t2"), "{why:#?}");
}

#[test]
fn an_update_skipping_an_uncommitted_row_is_shown_statement_by_statement_on_the_committed_state() {
    let (_, findings) = wss_of(
        "mariadb-rc-semi-consistent-skip.sql",
        "mariadb",
        Isolation::ReadCommitted,
    );
    assert!(
        !findings.is_empty(),
        "the UPDATE's duplicate key in commit order"
    );
    let why = permissible(&findings, "semi-consistent-read");
    assert!(
        why.evidence[0].starts_with(
            "every statement of the committed transactions (t2 → t3) answers as it does alone on the state committed when it started"
        ),
        "{why:#?}"
    );
}

/// Statements that resumed together reached txhunt in an order that need not be the one the
/// DBMS ran them in: where the replays fail in the observed order they try the others. The
/// run is judged as observed, and with the two waiting UPDATEs' completions the other way
/// round (what txhunt could as well have seen): both are READ COMMITTED's. With t2's UPDATE
/// before t1's it is shown only in the other order, and the evidence says so.
#[test]
fn waiters_that_resumed_together_are_replayed_in_either_order() {
    let (observed, _) = wss_of(
        "mariadb-rc-waiters-resumed-together.sql",
        "mariadb",
        Isolation::ReadCommitted,
    );
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/wss/mariadb-rc-waiters-resumed-together.sql");
    let case = case_of(&std::fs::read_to_string(path).expect("scenario"));
    // t1's autocommit UPDATE and t2's first UPDATE.
    let (t1, t2) = (2, 4);
    assert!(
        observed.steps[t1].blocked && observed.steps[t2].blocked,
        "{observed:#?}"
    );
    assert_eq!(observed.steps[t1].outcome, Outcome::Affected { count: 2 });
    assert_eq!(observed.steps[t2].outcome, Outcome::Affected { count: 0 });
    // Both orders, the pair marked as resumed together (whether this run saw it so or not).
    let mut together = observed.clone();
    let group = (together.steps.iter())
        .filter_map(|r| r.resumed_together)
        .max()
        .map_or(0, |g| g + 1);
    for s in [t1, t2] {
        together.steps[s].resumed_together = Some(group);
    }
    let mut swapped = together.clone();
    let place = |h: &History, s: usize| {
        (h.schedule.iter())
            .position(|e| *e == txhunt_model::Event::Completed { step: s })
            .expect("completed")
    };
    let (p1, p2) = (place(&together, t1), place(&together, t2));
    swapped.schedule.swap(p1, p2);
    let (r1, r2) = (together.steps[t1].completed, together.steps[t2].completed);
    (swapped.steps[t1].completed, swapped.steps[t2].completed) = (r2, r1);
    let target = open_target("mariadb", None).expect("the MariaDB testbed must start");
    let runner = TargetRunner {
        executor: Executor::default(),
        target: target.as_ref(),
    };
    for history in [&together, &swapped] {
        let findings = Wss.check(&case, history, &runner).findings;
        assert!(
            !findings.is_empty(),
            "no serial order gives the final state"
        );
        assert!(
            findings.iter().all(|f| f.permissible.is_some()),
            "{findings:#?}"
        );
        if place(history, t2) < place(history, t1) {
            let evidence = (findings.iter())
                .flat_map(|f| f.permissible.iter().flat_map(|p| p.evidence.clone()))
                .collect::<Vec<_>>()
                .join("\n");
            assert!(
                evidence.contains(
                    "completing in the order t1 `UPDATE t SET a = 2 WHERE a = 1` before t2 `UPDATE t SET a = 3 WHERE a = 1`"
                ),
                "{evidence}"
            );
        }
    }
}

/// The second file is the first with a savepoint its transaction rolls back to, and releases,
/// before the read: the replay takes the savepoint's changes back where it completed.
#[test]
fn an_update_that_read_an_intermediate_uncommitted_state_is_shown_on_the_newest_versions() {
    for file in [
        "mariadb-ru-intermediate-read.sql",
        "mariadb-ru-intermediate-read-after-rollback-to-savepoint.sql",
    ] {
        let (_, findings) = wss_of(file, "mariadb", Isolation::ReadUncommitted);
        assert!(
            !findings.is_empty(),
            "{file}: no serial order has `u` empty when t1 runs"
        );
        let why = permissible(&findings, "dirty-read");
        assert!(
            why.evidence[0].starts_with(
                "every statement answers as it does alone on the newest versions, committed or not"
            ),
            "{file}: {why:#?}"
        );
        // The stronger levels show nothing: READ COMMITTED violates WSS too, REPEATABLE READ
        // deadlocks.
        let ruled_out = why.ruled_out.join("\n");
        assert!(
            ruled_out.contains("not dirty-read: at read-committed the same case violates WSS too"),
            "{file}: {ruled_out}"
        );
    }
}

#[test]
fn postgres_read_committed_is_shown_statement_by_statement_on_the_committed_state() {
    let (_, findings) = wss_of(
        "postgres-rc-upsert-after-concurrent-delete.sql",
        "postgres",
        Isolation::ReadCommitted,
    );
    assert!(
        !findings.is_empty(),
        "row 1 is neither kept nor inserted again"
    );
    let why = permissible(&findings, "read-committed");
    assert!(
        why.evidence[0].starts_with(
            "every statement of the committed transactions (t4 → t2 → t1) answers as it does alone on the state committed when it started"
        ),
        "{why:#?}"
    );
}

#[test]
fn an_instrumented_run_is_compared_with_instrumented_serial_schedules() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/wss/sqlite-unique-checked-row-by-row.sql");
    let case = case_of(&std::fs::read_to_string(path).expect("scenario"));
    let sqlite = open_target("sqlite", None).unwrap();
    let level = Isolation::Serializable;
    let update = 1;
    let plain = Executor::default().execute(sqlite.as_ref(), &case, level);
    let instrumented = Executor {
        instrument: true,
        ..Executor::default()
    };
    let history = instrumented.execute(sqlite.as_ref(), &case, level).unwrap();
    // The premise: instrumentation changes the order in which SQLite visits the rows.
    assert!(plain.unwrap().steps[update].outcome.error().is_some());
    assert!(history.steps[update].outcome.succeeded());
    let runner = TargetRunner {
        executor: Executor::default(),
        target: sqlite.as_ref(),
    };
    let findings = Wss.check(&case, &history, &runner).findings;
    assert!(findings.is_empty(), "{findings:#?}");
}

#[test]
fn a_behaviour_whose_own_variants_take_another_path_is_shown_statement_by_statement() {
    let (history, findings) = wss_of(
        "mariadb-behaviour-not-shown.sql",
        "mariadb",
        Isolation::ReadCommitted,
    );
    assert!(!findings.is_empty(), "{history:#?}");
    let why = permissible(&findings, "semi-consistent-read");
    assert!(
        why.evidence[0].starts_with(
            "every statement of the committed transactions (t1 → t3) answers as it does alone on the state committed when it started"
        ),
        "{why:#?}"
    );
    for behaviour in ["semi-consistent-read", "unlocked-source-reads"] {
        assert!(
            why.ruled_out.iter().any(|l| l.starts_with(&format!(
                "permissible behaviour {behaviour} could not be shown: "
            )) && l
                .contains("took another path: t3 unfinished, where the run's t3 committed")),
            "{behaviour}: {why:#?}"
        );
    }
}

#[test]
fn an_insert_behind_a_delete_waiting_for_a_lock_had_the_missing_gap_lock_as_occasion() {
    // Reduced from `txhunt fuzz --target mariadb --isolation read-committed --seed 77
    // --max-stmts 10`, case 674 (a bug candidate before). t1's DELETE scans the table, waits
    // for t3's row 'b', and t3 inserts 'a' before it, where the DELETE had already been: no
    // gap lock stops it, and the DELETE, resumed, leaves 'a'. The DELETE had not completed
    // when the INSERT ran; it was reading the range all the same.
    let why = no_gap_locks_at_read_committed(&case_of(
        "/* init */ CREATE TABLE t (k VARCHAR(1) NOT NULL, v INT, PRIMARY KEY (k));
         /* t3 */ BEGIN;
         /* t3 */ INSERT INTO t (k, v) VALUES ('b', 2);
         /* t1 */ DELETE FROM t;  -- expect: blocked then affected 1
         /* t3 */ INSERT INTO t (k, v) VALUES ('a', 1);
         /* t3 */ COMMIT;",
    ));
    assert!(
        why.evidence[0].starts_with("without its insert into an open range"),
        "{why:#?}"
    );
}

#[test]
fn a_waiting_insert_that_went_in_behind_a_delete_waiting_after_it_had_the_missing_gap_lock_as_occasion(
) {
    // Reduced from `txhunt fuzz --target mariadb --cases 400 --seed 3 --oracle
    // explicit,dsg,wss`, case 109 (a bug candidate before). t1's failed INSERT leaves a
    // shared lock on -1. t4's REPLACE waits for it at its first row; t5's DELETE then scans
    // the table and waits for -1 too. Once t1 ends, the REPLACE inserts -2 where the DELETE
    // had already been (no gap lock), and the DELETE, resumed, leaves -2. The REPLACE began
    // to wait before the DELETE did; its rows went in after.
    let why = no_gap_locks_at_read_committed(&case_of(
        "/* init */ CREATE TABLE t0 (a0 BIGINT NOT NULL, a1 DECIMAL(2, 1), PRIMARY KEY (a0));
         /* t1 */ BEGIN;
         /* t3 */ INSERT INTO t0 (a0, a1) VALUES (-404, 7), (-1, 5);
         /* t1 */ INSERT INTO t0 (a0, a1) VALUES (-1, 4);
         /* t4 */ REPLACE INTO t0 (a0, a1) VALUES (-1, 6), (-2, 3);  -- expect: blocked then affected 3
         /* t5 */ DELETE FROM t0;  -- expect: blocked then affected 2
         /* t1 */ COMMIT;",
    ));
    assert!(
        why.evidence[0].starts_with(
            "without its insert into an open range (`REPLACE INTO t0 (a0, a1) VALUES (-1, 6), (-2, 3)`)"
        ),
        "{why:#?}"
    );
}

#[test]
fn an_update_that_skipped_a_locked_row_whose_committed_version_matches_is_not_excused() {
    // MariaDB 10.11 with innodb_snapshot_isolation=ON at READ UNCOMMITTED
    // (tests/mariadb-snapshot-isolation/read-uncommitted-update-skips-uncommitted-delete.sql):
    // t1's UPDATE skips row 1, which t2's unfinished DELETE locked, without waiting, although
    // the row's committed version (1, 1) matches; t2 rolls back and the update is lost. With
    // the locking read before it, or at a stronger level, the UPDATE waits and the case is
    // write-serializable, which excused it as a semi-consistent read (and then as a missing
    // gap lock); but the UPDATE does not replay on the newest committed versions, as every
    // InnoDB write below REPEATABLE READ must.
    let case = case_of(
        "/* init */ CREATE TABLE t (id INT PRIMARY KEY, k INT);
         /* init */ INSERT INTO t VALUES (1, 1), (2, 2);
         /* t3 */ BEGIN;
         /* t3 */ UPDATE t SET k = 2 WHERE id = 2;
         /* t2 */ BEGIN;
         /* t2 */ DELETE FROM t WHERE k <= 3;
         /* t1 */ UPDATE t SET k = 4 WHERE k = 1;
         /* t3 */ ROLLBACK;
         /* t2 */ ROLLBACK;",
    );
    let target = open_target("mariadb?innodb_snapshot_isolation=ON", None)
        .expect("the MariaDB testbed must start");
    let (history, runner) = execute(target.as_ref(), &case, Isolation::ReadUncommitted);
    assert_eq!(history.steps[4].outcome, Outcome::Affected { count: 0 });
    let findings = Wss.check(&case, &history, &runner).findings;
    assert_final_state_candidates(&findings);
    let why = evidence(&findings[0]).join("\n");
    let skipped = "t1 `UPDATE t SET k = 4 WHERE k = 1` answered affected 0 concurrently, but alone on the state committed when it started (with its transaction's changes before it) answers affected 1";
    for behaviour in ["semi-consistent-read", "dirty-read", "no-gap-locks"] {
        assert!(
            why.contains(&format!("not {behaviour}: {skipped}")),
            "{why}"
        );
    }
}

#[test]
fn a_missing_gap_lock_is_shown_without_the_committed_insert_where_removing_all_changes_the_deadlock_victim(
) {
    // Reduced from `txhunt fuzz --target mariadb --seed 301`, case 8883 (a bug candidate
    // before). t2's DELETE waits at row 4 (t1's lock) while t4 and t3 insert -3 and -5
    // behind its scan (no gap lock); it resumes when t1 is the deadlock victim and leaves
    // -3. Without both inserts t3 has changed fewer rows, InnoDB makes it the victim instead
    // of t1, and the variant shows nothing; without t4's committed insert alone the run keeps
    // its victim and is write-serializable.
    let why = no_gap_locks_at_read_committed(&case_of(
        "/* init */ CREATE TABLE t (k INT NOT NULL, PRIMARY KEY (k));
         /* init */ CREATE TABLE t2 (v BIGINT NOT NULL, w BIGINT, x VARCHAR(2), PRIMARY KEY (v));
         /* init */ INSERT INTO t (k) VALUES (3);
         /* init */ INSERT INTO t2 (v, w, x) VALUES (4, -4, 'b');
         /* t1 */ BEGIN;
         /* t3 */ BEGIN;
         /* t1 */ UPDATE t2 SET w = -4;
         /* t2 */ DELETE FROM t2;  -- expect: blocked then affected 1
         /* t4 */ REPLACE INTO t2 (v, w, x) VALUES (-3, -4, 'c');
         /* t3 */ INSERT INTO t2 (v, w, x) VALUES (-5, -2, 'b') ON DUPLICATE KEY UPDATE x = 'a', w = (t2.w + 1);
         /* t3 */ INSERT INTO t (k) VALUES (3);  -- expect: error constraint
         /* t1 */ DELETE FROM t;  -- expect: blocked then error deadlock
         /* t3 */ REPLACE INTO t (k) VALUES (-1), (3);
         /* t3 */ ROLLBACK;
         /* t1 */ COMMIT;",
    ));
    assert!(
        why.evidence[0].starts_with(
            "without its insert into an open range (`REPLACE INTO t2 (v, w, x) VALUES (-3, -4, 'c')`)"
        ),
        "{why:#?}"
    );
}

#[test]
fn a_gap_insert_run_in_autocommit_after_its_transaction_aborted_counts_as_committed() {
    // Another reduction of `txhunt fuzz --target mariadb --seed 301`, case 8883. t4's locking
    // read is a deadlock victim; its REPLACE then runs in autocommit (t4+) and inserts 5 into
    // t2, which t1 had updated whole (no gap lock at READ COMMITTED), so t1's commit leaves
    // (5, -6) where the serial order gives (5, -5). Without both gap inserts t3 is no longer a
    // deadlock victim (another path); without t4+'s committed REPLACE alone the run keeps its
    // path and is write-serializable.
    let why = no_gap_locks_at_read_committed(&case_of(
        "/* init */ CREATE TABLE t (k INT NOT NULL, v DOUBLE, PRIMARY KEY (k));
         /* init */ CREATE TABLE t2 (w BIGINT NOT NULL, x BIGINT, PRIMARY KEY (w));
         /* init */ INSERT INTO t (k, v) VALUES (3, 1), (-3, -2);
         /* init */ INSERT INTO t2 (w, x) VALUES (6, -5), (-4, 7);
         /* t1 */ BEGIN;
         /* t3 */ BEGIN;
         /* t1 */ UPDATE t2 SET x = -5;
         /* t1 */ DELETE FROM t WHERE v = -1;
         /* t4 */ BEGIN;
         /* t4 */ SELECT * FROM t JOIN t2 ON v = w FOR UPDATE;  -- expect: blocked then error deadlock
         /* t4 */ REPLACE INTO t2 (w, x) VALUES (5, -6);
         /* t4 */ COMMIT;
         /* t3 */ INSERT INTO t (k) VALUES (4) ON DUPLICATE KEY UPDATE v = (t.v + 2);
         /* t1 */ DELETE FROM t;  -- expect: blocked then affected 2
         /* t3 */ REPLACE INTO t (k, v) VALUES (-3, -2);  -- expect: error deadlock
         /* t3 */ ROLLBACK;
         /* t1 */ COMMIT;",
    ));
    assert!(
        why.evidence[0].starts_with(
            "without its insert into an open range (`REPLACE INTO t2 (w, x) VALUES (5, -6)`)"
        ),
        "{why:#?}"
    );
}

#[test]
fn semi_consistent_read_and_a_missing_gap_lock_together_are_shown_by_one_variant() {
    // Reduced from `txhunt fuzz --target mariadb --seed 501`, case 11406 (a bug candidate
    // before). t1's UPDATE skips t4's uncommitted row 6 (no committed version: semi-consistent
    // read), and t4 inserts -1 behind t3's waiting DELETE (no gap lock). With the locking read
    // before the UPDATE the missing gap lock still violates WSS; without the insert the skip
    // still does; with both switched off the case is write-serializable.
    let case = case_of(
        "/* init */ CREATE TABLE t (k DECIMAL(5,1) NOT NULL, v BIGINT NOT NULL, w INT, PRIMARY KEY (v));
         /* init */ INSERT INTO t (k, v, w) VALUES (5, 8, 0);
         /* t4 */ BEGIN;
         /* t4 */ INSERT INTO t (k, v, w) VALUES (5, 6, 4);
         /* t3 */ DELETE FROM t WHERE k >= 5;  -- expect: blocked then affected 1
         /* t4 */ SELECT * FROM t;
         /* t1 */ BEGIN;
         /* t1 */ UPDATE t SET k = 2;  -- expect: affected 1
         /* t4 */ INSERT INTO t (k, v, w) VALUES (7, -1, 3);
         /* t4 */ COMMIT;
         /* t1 */ COMMIT;",
    );
    let mariadb = open_target("mariadb", None).expect("the MariaDB testbed must start");
    let (history, runner) = execute(mariadb.as_ref(), &case, Isolation::ReadCommitted);
    let findings = Wss.check(&case, &history, &runner).findings;
    assert!(!findings.is_empty(), "{history:#?}");
    let why = permissible(&findings, "semi-consistent-read+no-gap-locks");
    assert!(
        why.evidence[0].starts_with("with a SELECT … FOR UPDATE of its rows before each UPDATE and without its inserts into an open range (`INSERT INTO t (k, v, w) VALUES (7, -1, 3)`), the case is write-serializable"),
        "{why:#?}"
    );
    for alone in [
        "not semi-consistent-read: with a SELECT … FOR UPDATE of its rows before its UPDATE statement, the case violates WSS too",
        "not no-gap-locks: without its insert into an open range (`INSERT INTO t (k, v, w) VALUES (7, -1, 3)`), the case violates WSS too",
    ] {
        assert!(why.ruled_out.iter().any(|l| l.starts_with(alone)), "{why:#?}");
    }
}

#[test]
fn a_missing_gap_lock_the_stronger_level_cannot_show_is_shown_without_the_insert() {
    // Listing 6 with a second table: at read-committed t2 inserts into the range t1 deleted
    // (no gap lock) and t1 waits for t2's row in u. At repeatable-read t2's INSERT waits for
    // t1's gap lock while t1 waits for t2: a deadlock aborts one of them, so the stronger
    // level shows nothing about gap locks. Without t2's INSERT the same case, at the same
    // level and on the same path, is write-serializable: the violation needs the insert.
    let case = case_of(
        "/* init */ CREATE TABLE t(c1 INT);
         /* init */ CREATE TABLE u(k INT PRIMARY KEY, v INT);
         /* init */ INSERT INTO t VALUES (3);
         /* init */ INSERT INTO u VALUES (1, 0);
         /* t1 */ BEGIN;
         /* t1 */ DELETE FROM t WHERE c1 BETWEEN 1 AND 10;
         /* t2 */ BEGIN;
         /* t2 */ UPDATE u SET v = 2 WHERE k = 1;
         /* t2 */ INSERT INTO t VALUES (5);
         /* t1 */ UPDATE u SET v = 1 WHERE k = 1;
         /* t2 */ COMMIT;
         /* t1 */ UPDATE t SET c1 = c1 + 1;
         /* t1 */ COMMIT;
",
    );
    let why = no_gap_locks_at_read_committed(&case);
    assert!(
        why.ruled_out.iter().any(|l| l.starts_with(
            "permissible behaviour no-gap-locks could not be shown: at repeatable-read the same case took another path: t"
        ) && l.contains("aborted by")),
        "{why:#?}"
    );
    assert_eq!(
        why.evidence[0],
        "without its insert into an open range (`INSERT INTO t VALUES (5)`), the case is write-serializable in commit order (t2 → t1)"
    );
    assert!(
        why.evidence[1].starts_with("every UPDATE and DELETE that did not wait"),
        "{why:#?}"
    );
}

#[test]
fn a_missing_gap_lock_is_shown_without_the_inserts_after_the_last_abort_when_removing_all_takes_another_path(
) {
    // t2's first INSERT (into the range t1 deleted) makes t1's locking read wait, and t2's own
    // locking read then closes a deadlock: t2 is the victim. Its autocommit INSERT of 5 goes
    // into t1's deleted range without a gap lock. Without both inserts t2 never deadlocks
    // (another path: nothing shown); without only the insert after the abort the run keeps
    // its path and is write-serializable: the violation needs that insert.
    let case = case_of(
        "/* init */ CREATE TABLE t(c1 INT);
         /* init */ INSERT INTO t VALUES (3);
         /* t1 */ BEGIN;
         /* t1 */ DELETE FROM t WHERE c1 BETWEEN 1 AND 10;
         /* t2 */ BEGIN;
         /* t2 */ INSERT INTO t VALUES (20);
         /* t1 */ SELECT * FROM t WHERE c1 = 20 FOR UPDATE;
         /* t2 */ SELECT * FROM t WHERE c1 = 3 FOR UPDATE;
         /* t2 */ INSERT INTO t VALUES (5);
         /* t1 */ UPDATE t SET c1 = c1 + 1;
         /* t1 */ COMMIT;
",
    );
    let why = no_gap_locks_at_read_committed(&case);
    assert_eq!(
        why.evidence[0],
        "without its insert into an open range (`INSERT INTO t VALUES (5)`), the case is write-serializable in commit order (t2 (rolled back) → t2+ → t1)"
    );
    assert!(
        why.evidence[1].starts_with("every UPDATE and DELETE that did not wait"),
        "{why:#?}"
    );
}

/// The run of `tests/wss/NAME` on a fresh testbed `target` at `level`, and WSS's findings.
fn wss_of(name: &str, target: &str, level: Isolation) -> (History, Vec<Finding>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/wss")
        .join(name);
    let case = case_of(&std::fs::read_to_string(path).expect("scenario"));
    let target = open_target(target, None)
        .unwrap_or_else(|e| panic!("the {target} testbed must start: {e}"));
    let (history, runner) = execute(target.as_ref(), &case, level);
    let findings = Wss.check(&case, &history, &runner).findings;
    (history, findings)
}

/// Why WSS finds the run of `tests/wss/NAME` on PostgreSQL at `level` permissible as
/// `behaviour` (it must find a violation: neither serial order gives the final state).
fn excused_on_postgres(name: &str, level: Isolation, behaviour: &str) -> Permissible {
    let (_, findings) = wss_of(name, "postgres", level);
    assert!(
        !findings.is_empty(),
        "neither serial order gives the final state"
    );
    permissible(&findings, behaviour)
}

/// Why WSS finds `case` permissible as a missing gap lock on MariaDB at READ COMMITTED (it
/// must find a violation, and explain it so).
fn no_gap_locks_at_read_committed(case: &TestCase) -> Permissible {
    let mariadb = open_target("mariadb", None).expect("the MariaDB testbed must start");
    let (history, runner) = execute(mariadb.as_ref(), case, Isolation::ReadCommitted);
    let findings = Wss.check(case, &history, &runner).findings;
    assert!(!findings.is_empty(), "{history:#?}");
    permissible(&findings, "no-gap-locks")
}

/// `findings` are the two final-state violations (transaction and statement level), both
/// bug candidates.
fn assert_final_state_candidates(findings: &[Finding]) {
    assert_eq!(
        signatures(findings),
        ["tx-wss:final-state", "stmt-wss:final-state"]
    );
    assert!(findings.iter().all(Finding::is_candidate), "{findings:#?}");
}

/// `text` as a case.
fn case_of(text: &str) -> TestCase {
    scenario::parse(text, "case.sql").expect("parses")
}

#[test]
fn snapshot_replay_accepts_snapshot_isolation_and_refuses_a_lost_update() {
    use txhunt_oracle::wss::{schedule::fcrfs, snapshot::snapshot_replay};
    let replay = |target: &dyn Target, case: &TestCase, level| {
        let (history, runner) = execute(target, case, level);
        let units = fcrfs(case, &history, false).expect("judgeable");
        snapshot_replay(case, &history, &units, &runner)
    };
    // PostgreSQL's REPEATABLE READ is snapshot isolation: its write skew is one.
    let postgres = open_target("postgres", None).expect("the PostgreSQL testbed must start");
    let skew = example("wss/write-skew.sql");
    let shown = replay(postgres.as_ref(), &skew, Isolation::RepeatableRead);
    assert!(
        shown.as_ref().is_ok_and(|how| how.contains("t1 → t2")),
        "{shown:?}"
    );
    // InnoDB's REPEATABLE READ updates the newest committed row, not the snapshot's: t2
    // overwrites t1's increment, which snapshot isolation forbids.
    let lost = case_of(
        "/* init */ CREATE TABLE c(id INT PRIMARY KEY, val INT);\n\
         /* init */ INSERT INTO c VALUES (1, 0);\n\
         /* t1 */ BEGIN;\n/* t2 */ BEGIN;\n\
         /* t1 */ SELECT val FROM c WHERE id = 1;\n/* t2 */ SELECT val FROM c WHERE id = 1;\n\
         /* t1 */ UPDATE c SET val = val + 1 WHERE id = 1;\n/* t1 */ COMMIT;\n\
         /* t2 */ UPDATE c SET val = val + 1 WHERE id = 1;\n/* t2 */ COMMIT;\n",
    );
    let mariadb = open_target("mariadb", None).expect("the MariaDB testbed must start");
    let refused = replay(mariadb.as_ref(), &lost, Isolation::RepeatableRead);
    let why = refused.expect_err("a lost update is not snapshot isolation");
    assert!(why.to_string().contains("first committer wins"), "{why}");
}
