//! The generators: reproducible from the seed, within the configured sizes, and accepted by
//! every DBMS (rejections are generator bugs).

use txhunt_db::{open_target, Target};
use txhunt_exec::Executor;
use txhunt_model::{ErrorClass, Isolation, Outcome, SqlFamily};
use txhunt_sql::dialect::{for_family, Sqlite};
use txhunt_sql::{generate, GenConfig};

#[test]
fn the_same_seed_gives_the_same_case() {
    let config = GenConfig::default();
    for seed in 0..50 {
        let a = generate(seed, &config, &Sqlite, Isolation::Serializable, None);
        let b = generate(seed, &config, &Sqlite, Isolation::Serializable, None);
        assert_eq!(a, b);
    }
    let a = generate(1, &config, &Sqlite, Isolation::Serializable, None);
    let b = generate(2, &config, &Sqlite, Isolation::Serializable, None);
    assert_ne!(a.case, b.case);
}

#[test]
fn cases_stay_within_the_papers_sizes() {
    let config = GenConfig::default();
    for seed in 0..200 {
        let g = generate(seed, &config, &Sqlite, Isolation::Serializable, None);
        let txns = g.case.txns();
        assert!(!txns.is_empty() && txns.len() <= 5 * 7, "seed {seed}");
        assert!(g.case.sessions().len() <= config.max_txns, "seed {seed}");
        assert!(
            txns.iter().any(|t| t.explicit),
            "seed {seed}: an explicit transaction"
        );
        assert!(
            g.kinds.iter().any(|k| [
                "insert",
                "insert-ignore",
                "upsert",
                "replace",
                "update",
                "delete"
            ]
            .contains(k)),
            "seed {seed}: a write"
        );
        assert_eq!(g.kinds.len(), g.case.steps.len());
        assert_eq!(g.init_kinds.len(), g.case.init.len());
        let tables = g
            .init_kinds
            .iter()
            .filter(|k| **k == "create-table")
            .count();
        assert!((1..=3).contains(&tables), "seed {seed}");
    }
}

#[test]
fn instrumentable_cases_read_keys_and_versions_and_write_fresh_versions() {
    let config = GenConfig {
        instrumentable: true,
        ..GenConfig::default()
    };
    for seed in 0..100 {
        let g = generate(seed, &config, &Sqlite, Isolation::Serializable, None);
        for sql in g
            .case
            .init
            .iter()
            .filter(|s| s.sql.starts_with("CREATE TABLE"))
        {
            let letter = &sql.sql["CREATE TABLE t".len()..]
                .chars()
                .next()
                .map(|c| (b'a' + c.to_digit(10).unwrap() as u8) as char)
                .unwrap();
            assert!(
                sql.sql.contains(&format!(
                    "({letter}_pk INT NOT NULL, {letter}_ver INT NOT NULL"
                )),
                "{}",
                sql.sql
            );
            assert!(
                sql.sql.contains(&format!("PRIMARY KEY ({letter}_pk)")),
                "{}",
                sql.sql
            );
        }
        for (step, kind) in g.case.steps.iter().zip(&g.kinds) {
            if kind.starts_with("select") {
                assert!(
                    step.stmt.sql.starts_with("SELECT ")
                        && step.stmt.sql.contains("_pk, ")
                        && step.stmt.sql.contains("_ver FROM"),
                    "{}",
                    step.stmt.sql
                );
            }
            if *kind == "update" {
                assert!(step.stmt.sql.contains("_ver = "), "{}", step.stmt.sql);
            }
        }
    }
}

/// Runs `cases` generated cases on `target` and returns (statements, rejected, kinds seen).
fn rejection_rate(
    target: &dyn Target,
    cases: u64,
) -> (usize, Vec<String>, std::collections::BTreeSet<&'static str>) {
    let dialect = for_family(target.profile().family());
    let executor = Executor::default();
    let mut statements = 0;
    let mut rejected = Vec::new();
    let mut kinds = std::collections::BTreeSet::new();
    for seed in 0..cases {
        let level = target.profile().default_isolation();
        let g = generate(seed, &GenConfig::default(), dialect, level, None);
        let history = executor.execute(target, &g.case, level).expect("runs");
        let outcomes = history
            .init
            .iter()
            .zip(g.case.init.iter().map(|s| &s.sql))
            .chain(
                history
                    .steps
                    .iter()
                    .map(|r| &r.outcome)
                    .zip(g.case.steps.iter().map(|s| &s.stmt.sql)),
            );
        for (outcome, sql) in outcomes {
            statements += 1;
            if let Outcome::Error(e) = outcome {
                if e.class == ErrorClass::Syntax {
                    rejected.push(format!("{sql}\n  -> {}", e.message));
                }
            }
        }
        kinds.extend(g.kinds.iter().copied());
    }
    (statements, rejected, kinds)
}

fn assert_accepted(target_name: &str, cases: u64) {
    let target = open_target(target_name, None).unwrap_or_else(|e| panic!("{target_name}: {e}"));
    let (statements, rejected, kinds) = rejection_rate(target.as_ref(), cases);
    let rate = rejected.len() as f64 / statements as f64;
    assert!(
        rate < 0.02,
        "{target_name}: {} of {statements} rejected, e.g.\n{}",
        rejected.len(),
        rejected
            .iter()
            .take(8)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    for kind in [
        "select",
        "select-join",
        "select-aggregate",
        "insert",
        "update",
        "delete",
        "begin",
        "commit",
        "rollback",
    ] {
        assert!(
            kinds.contains(kind),
            "{target_name}: no {kind} in {kinds:?}"
        );
    }
}

#[test]
fn sqlite_accepts_generated_statements() {
    assert_accepted("sqlite", 150);
}

#[test]
fn mariadb_accepts_generated_statements() {
    assert_accepted("mariadb", 150);
}

#[test]
fn postgres_accepts_generated_statements() {
    assert_accepted("postgres", 150);
}

#[test]
fn every_generated_update_has_a_locking_read_twin() {
    let config = GenConfig::default();
    for family in [SqlFamily::Mysql, SqlFamily::Postgres] {
        let dialect = for_family(family);
        let mut updates = 0;
        for seed in 0..200 {
            let g = generate(seed, &config, dialect, Isolation::ReadCommitted, None);
            for step in &g.case.steps {
                if step.stmt.kind() == txhunt_model::StmtKind::Update {
                    updates += 1;
                    let read = txhunt_sql::rewrite::locking_read_of_update(&step.stmt.sql, family);
                    assert!(read.is_some(), "{family}: {}", step.stmt.sql);
                }
            }
        }
        assert!(updates > 100, "{family}: only {updates} updates");
    }
}
