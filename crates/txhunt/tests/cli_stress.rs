//! `txhunt stress` and `txhunt bench stress` as a user meets them.

mod common;

use common::{succeeded, txhunt};

#[test]
fn stress_judges_each_workload_and_writes_its_recipe_and_verdicts() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let stdout = succeeded(&[
        "stress",
        "--target",
        "sqlite",
        "--workload",
        "bank,register",
        "--duration",
        "1s",
        "--sessions",
        "4",
        "--keys",
        "3",
        "--seed",
        "7",
        "--out",
        out,
    ]);
    for workload in ["bank", "register"] {
        assert!(
            stdout.contains(&format!("stress on sqlite 3.54.1: {workload} at serializable, 4 sessions over 3 keys, seed 7")),
            "{stdout}"
        );
        let path = dir
            .path()
            .join(format!("stress-sqlite-{workload}-serializable-7.json"));
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(report["workload"], workload);
        assert_eq!(report["seed"], 7);
        assert!(report["committed"].as_u64().unwrap() > 0, "{report}");
        assert_eq!(report["candidates"], serde_json::json!([]), "{report}");
    }
    assert_eq!(stdout.matches("no bug candidate").count(), 2, "{stdout}");
}

#[test]
fn stress_names_the_flag_of_a_workload_it_does_not_know() {
    let run = txhunt(&["stress", "--workload", "bank,ledger", "--duration", "1s"]);
    assert_eq!(run.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&run.stderr).trim(),
        "error: --workload: no workload named `ledger`; known: register, list-append, bank, random, all"
    );
}

#[test]
fn bench_stress_compares_the_recorded_run_with_a_plain_client_loop_of_a_fixed_seed() {
    let stdout = succeeded(&[
        "bench",
        "stress",
        "--target",
        "sqlite",
        "--duration",
        "1s",
        "--repeat",
        "1",
        "--sessions",
        "2",
        "--format",
        "json",
    ]);
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let (plain, recorded) = (
        report["plain"]["median"].as_f64().unwrap(),
        report["recorded"]["median"].as_f64().unwrap(),
    );
    assert!(plain > 0.0 && recorded > 0.0, "{report}");
    assert!((report["ratio"].as_f64().unwrap() - recorded / plain).abs() < 1e-9);
    // Without --seed the bench runs a fixed seed, so that two benches compare alike.
    assert_eq!(report["seed"], 1, "{report}");
    assert!(
        report["history_statements"].as_u64().unwrap() > 0,
        "{report}"
    );
}

#[test]
fn a_full_history_ends_a_round_and_the_run_goes_on_with_the_next() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "stress",
        "--target",
        "sqlite",
        "--workload",
        "list-append",
        "--duration",
        "2s",
        "--max-history",
        "300",
        "--seed",
        "3",
        "--out",
        dir.path().to_str().unwrap(),
    ];
    let stdout = succeeded(&args);
    assert!(
        stdout.contains("rounds, each on a fresh database"),
        "{stdout}"
    );
    let path = dir
        .path()
        .join("stress-sqlite-list-append-serializable-3.json");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let rounds = report["rounds"].as_u64().unwrap();
    assert!(rounds >= 2, "{report}");
    // The rounds together ran transactions for the whole duration, not one round's worth.
    let seconds = report["seconds"].as_f64().unwrap();
    assert!((1.9..10.0).contains(&seconds), "{report}");
    // Each session finishes the transaction it is in: a few statements past a round's limit.
    let largest = report["largest_history"].as_u64().unwrap();
    assert!((300..300 + 8 * 6).contains(&largest), "{report}");
    let statements = report["statements"].as_u64().unwrap();
    assert!(
        statements >= 300 * (rounds - 1) && statements <= largest * rounds,
        "{report}"
    );
    // The same recipe again: the first run's report stays, the second is beside it.
    let written = std::fs::read_to_string(&path).unwrap();
    succeeded(&args);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), written);
    let again = dir
        .path()
        .join("stress-sqlite-list-append-serializable-3-run2.json");
    assert!(
        again.exists(),
        "{:?}",
        std::fs::read_dir(dir.path()).unwrap().collect::<Vec<_>>()
    );
}
